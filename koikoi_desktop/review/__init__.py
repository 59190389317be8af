"""The match review: replaying a recorded match move by move and judging every decision.

* :mod:`.timeline` — the match record replayed into positions (pure engine);
* :mod:`.analysis` — each decision scored from its seat's view by the Expert's search, classed
  good / inaccuracy / mistake / blunder, summed up per seat;
* :mod:`.runner` — the analysis off the frame loop (a worker process), cached with the match.

No pygame here: the screen is :mod:`koikoi_desktop.scenes.review.scene`.
"""
