"""riskboard's Pi service: rules, dice, journal, table orchestration, lights, web and CLI."""

__version__ = "0.1.0"
