"""English defaults for every UI string key (used when a catalog lacks the key).

The five catalogs in ``koikoi_desktop/i18n/`` are the source of truth; this table only keeps the
screens readable while a key is missing (and documents what each key is for).
"""

from __future__ import annotations

DEFAULTS: dict[str, str] = {
    "ui.common.back": "Back",
    "ui.common.on": "on",
    "ui.common.off": "off",
    "ui.common.ok": "OK",
    "ui.common.yes": "Yes",
    "ui.common.no": "No",
    "ui.common.cancel": "Cancel",
    "ui.common.continue": "Continue",
    "ui.common.coming_soon": "This screen is coming soon.",
    "ui.scene.title": "Title",
    "ui.scene.new-game": "New game",
    "ui.scene.table": "Table",
    "ui.scene.month-reference": "Month reference",
    "ui.scene.yaku-reference": "Yaku reference",
    "ui.scene.rules": "Rules",
    "ui.scene.settings": "Settings",
    "ui.scene.ledger": "Ledger",
    "ui.scene.about": "About",
    "ui.title.name": "Koi-Koi",
    "ui.title.tagline": "Hanafuda for two players",
    "ui.title.new_game": "New game",
    "ui.title.continue": "Continue",
    "ui.title.month_reference": "Month reference",
    "ui.title.ledger": "Ledger",
    "ui.title.settings": "Settings",
    "ui.title.about": "About",
    "ui.title.quit": "Quit",
    "ui.title.no_autosave": "No saved match to continue.",
}
