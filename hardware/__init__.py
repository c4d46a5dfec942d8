"""Hardware abstraction: LED strips, control buttons and board profiles, each with a mock."""
