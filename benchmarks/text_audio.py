"""Text and sound costs: font loading, label rendering (cold and cached), wrapping, synthesis.

Run: ``python benchmarks/text_audio.py``. Prints one line per figure and a JSON summary last.
Headless (dummy video and audio drivers).
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import pygame

from koikoi_desktop import i18n, text
from koikoi_desktop.ui import audio as audio


def timed(fn, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> int:
    pygame.font.init()
    figures: dict[str, float] = {}
    figures["font_load_both_slots_ms"] = 1000 * timed(
        lambda: [text.get_font(s, 22) for s in (text.LATIN, text.JAPANESE)]
    )
    labels = []
    for code in i18n.LANGUAGES:
        words = i18n.Words(code)
        labels += [words.card_name(c) for c in range(1, 49)]
        labels += [words.yaku_name(y) for y in i18n.YAKU_KEYS]

    def render_all_uncached() -> None:
        for s in labels:
            text._render_uncached(s, 22, (255, 255, 255), bold=False)

    per = timed(render_all_uncached, 3) / len(labels)
    figures["render_label_uncached_us"] = per * 1e6
    for s in labels:
        text.render(s, 22, (255, 255, 255))
    figures["render_label_cached_us"] = (
        1e6 * timed(lambda: [text.render(s, 22, (255, 255, 255)) for s in labels], 20) / len(labels)
    )
    paragraphs = [i18n.t_in(c, "about.history.2") for c in i18n.LANGUAGES]
    figures["wrap_paragraph_ms"] = (
        1000 * timed(lambda: [text.wrap(p, 18, 480) for p in paragraphs], 3) / len(paragraphs)
    )

    figures["synth_all_effects_ms"] = 1000 * timed(
        lambda: [audio.synthesize(n) for n in audio.EFFECTS]
    )
    figures["synth_ambient_loop_ms"] = 1000 * timed(audio.ambient_loop)
    player = audio.Audio()
    figures["audio_init_ms"] = 1000 * timed(player.init)
    player.quit()

    font_bytes = sum(p.stat().st_size for p in text.fonts_dir().glob("*.[ot]tf"))
    figures["shipped_fonts_mib"] = font_bytes / 2**20
    for key, value in figures.items():
        print(f"{key:28s} {value:10.2f}")
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
