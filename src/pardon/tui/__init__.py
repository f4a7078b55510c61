"""The terminal: ``pardon tui``, the full-screen game (Textual, the ``tui`` extra), and
``pardon play``'s watcher (:mod:`pardon.tui.watch`, standard library only).

Importing this package imports nothing beyond the standard library; :mod:`pardon.tui.app` and
:mod:`pardon.tui.launch` need Textual, and joining an online game needs websockets.
"""
