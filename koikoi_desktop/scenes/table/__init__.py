"""The table: its scene, controller (no pygame), view, prompts, sidebar and words."""
