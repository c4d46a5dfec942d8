"""riskboard's Pi service: rules, dice, journal, table orchestration, lights, web and CLI.

Its version is the installed distribution's (`pi_app.version.installed_version`).
"""
