"""The dealer station's window (PySide6).

Views (`cards`, `seat`, `felt`, `panel`, `window`) hold layout only; `controller` holds the
behaviour and calls the core (`app.core`), which holds every rule of the game; `present`
turns the core's records into the text the views show.
"""
