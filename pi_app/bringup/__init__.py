"""Bring-up: the board learns how it was wired while the maker touches it (issue 25).

`core.BringUp` is the pure state machine (events in, LED frame and prompt out);
`profile_writer` turns what it learned into a validated, commented profile TOML and saves
it atomically with a backup.
"""
