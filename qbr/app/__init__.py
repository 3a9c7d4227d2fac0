"""The application: frame sources, the session state machine, overlay drawing, the live loop, commands."""
