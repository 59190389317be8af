"""Facts into words, with no pygame: the layer between the facts (the engine's events, the
computer's reasons, storage's notices) and the screens that draw them.

* :mod:`.names` — the seats' names and the players' titles;
* :mod:`.deal` — the deal seal and the deal check's findings;
* :mod:`.reasons` — the computer's and the review's reasons;
* :mod:`.storage` — storage's causes and notices.

Each module takes a :class:`koikoi_desktop.i18n.Words` and returns text; none keeps state.
"""
