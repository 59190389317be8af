"""``python -m koikoi_desktop`` starts the game."""

from koikoi_desktop.app import main

if __name__ == "__main__":
    raise SystemExit(main())
