"""Test set-up: headless SDL before pygame is ever imported."""

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


# ------------------------------------------------------------------------------ the quick tier
#: Tests marked ``slow`` here, by file and test name (every parameter of it), from measured
#: durations (``--durations``, 2 shared cores under load; each took a second or more): games
#: started as processes (command line, crash, damaged files, process kills, the monkey, the
#: soak), whole matches played through the scenes, sound synthesis, the card art at full size,
#: the packaging builds, hypothesis properties and arena-sized AI samples. A test marked
#: ``slow`` or ``xvfb`` in its own file is slow too. Everything else is ``quick``
#: (``python -m pytest -m quick``: README), which keeps tests of every package. A name here
#: that no longer names a test fails ``tests/test_tiers.py``, so the list cannot go stale.
SLOW: dict[str, tuple[str, ...]] = {
    "tests/abuse/test_hostile_inputs.py": (
        "test_bad_flags_one_line_exit_2",
        "test_continue_flag_with_and_without_a_saved_match",
        "test_crash_on_the_title_has_no_match_record",
        "test_crash_report_has_traceback_and_match_record",
        "test_damaged_assets_fall_back_without_a_traceback",
        "test_damaged_database",
        "test_damaged_settings_old_ledger_and_autosave",
        "test_data_dir_under_a_file_starts_and_keeps_going",
        "test_ledger_command_line_export_import_and_bad_files",
        "test_no_assets_at_all",
        "test_old_ledger_only_in_the_backup_survives_a_start",
        "test_read_only_data_dir_starts_and_loses_nothing",
        "test_settings_and_ledger_that_are_folders",
    ),
    "tests/abuse/test_monkey.py": (
        "test_a_burst_of_resizes_is_handled_once",
        "test_monkey",
        "test_monkey_plays_matches",
    ),
    "tests/abuse/test_soak_short.py": ("test_short_soak",),
    "tests/abuse/test_workers.py": ("*",),
    "tests/ai/test_decision_oracle.py": (
        "test_positions_are_the_experts_own_choices_with_every_legal_action_valued",
        "test_the_oracle_values_taking_a_bright_above_throwing_away_a_plain",
        "test_the_other_kinds_keep_every_decision_of_their_kind",
    ),
    "tests/ai/test_duplicate_rounds.py": (
        "test_alike_choosers_score_zero_and_the_stronger_one_scores_above_it",
    ),
    "tests/ai/test_fair_and_legal.py": (
        "test_complete_matches_under_every_rule_set",
        "test_same_view_different_hidden_deal_same_decision",
    ),
    "tests/ai/test_learned.py": (
        "test_leaf_value_script_runs_resumes_and_reproduces",
        "test_match_equity_script_runs_resumes_and_reproduces",
    ),
    "tests/ai/test_reading_ceiling.py": (
        "test_every_reading_is_a_distribution_over_his_hand",
        "test_the_true_hand_fits_his_plays_and_others_are_ruled_out",
    ),
    "tests/engine/test_parser_fuzz.py": (
        "test_action_from_text_raises_only_illegal_action",
        "test_replay_match_raises_only_record_error",
    ),
    "tests/engine/test_properties.py": (
        "test_fast_base_equals_full_score",
        "test_fast_rollout_follows_the_rules",
        "test_illegal_actions_raise_and_change_nothing",
        "test_random_playout_invariants",
        "test_same_seed_same_round",
        "test_score_monotone_when_a_card_is_added",
    ),
    "tests/engine/test_scenarios_reference.py": ("test_r_turn_r_koi_r_end_reference_custom",),
    "tests/engine/test_seams.py": ("test_goals_agree_with_the_scorer",),
    "tests/packaging/test_icons.py": ("test_generator_writes_every_icon",),
    "tests/packaging/test_wheel.py": ("*",),
    "tests/review/test_review_analysis.py": (
        "test_beginner_loses_more_per_decision_than_expert_in_arena_matches",
        "test_throwing_the_last_round_is_a_blunder",
    ),
    "tests/review/test_review_cli.py": (
        "test_review_latest_and_by_id_write_the_json_and_cache_it",
    ),
    "tests/storage/test_damaged_files.py": (
        "test_a_database_failing_quick_check_is_salvaged_row_by_row",
        "test_random_bytes_never_stop_the_game_nor_get_deleted",
        "test_settings_truncated_anywhere",
    ),
    "tests/storage/test_models.py": ("test_tolerant_loading_never_fails_and_keeps_valid_fields",),
    "tests/storage/test_processes.py": ("*",),
    "tests/storage/test_store.py": ("test_any_text_survives_the_ledger_and_the_exports",),
    "tests/test_benchmarks_run.py": ("test_the_script_runs_and_prints_its_figures",),
    "tests/test_processes.py": ("test_workers_die_within_2_s_of_a_killed_parent",),
    "tests/test_table_layers.py": ("test_the_gesture_and_the_controller_load_without_pygame",),
    "tests/ui/test_audio.py": (
        "test_a_cache_that_cannot_be_written_still_gives_the_sounds",
        "test_ambient_loop_is_quiet_long_and_seamless",
        "test_cancel_ends_a_worker_forked_from_a_process_that_catches_sigterm",
        "test_effects_are_deterministic_and_distinct",
        "test_export_wavs",
        "test_init_with_dummy_driver_plays_without_error",
        "test_play_before_effects_are_ready_is_skipped",
        "test_play_says_whether_the_effect_started",
        "test_sounds_are_kept_between_runs_and_remade_when_damaged",
    ),
    "tests/ui/test_card_art.py": (
        "test_corners_are_rounded_and_transparent",
        "test_deck_sheet_renders_both_variants",
        "test_every_card_and_the_back_is_detailed",
    ),
    "tests/ui/test_charts.py": (
        "test_match_chart_tooltip_shows_the_multipliers",
        "test_every_point_lies_inside_the_plot_inside_the_chart",
        "test_match_result_charts_both_balances_of_every_round",
    ),
    "tests/ui/test_continue.py": (
        "test_continue_a_match_saved_after_its_last_move",
        "test_continue_after_a_finished_round_and_at_a_koikoi_decision",
    ),
    "tests/ui/test_desktop_session.py": (
        "test_no_display_is_one_line_and_status_1",
        "test_a_display_that_does_not_answer_is_named",
        "test_opening_audio_prints_no_library_lines",
    ),
    "tests/ui/test_i18n.py": ("test_every_string_renders_without_missing_glyphs",),
    "tests/ui/test_idle_loop.py": (
        "test_the_table_waiting_for_the_player_sleeps_and_the_card_info_still_comes",
    ),
    "tests/ui/test_layout_shots.py": (
        "test_match_result",
        "test_match_result_with_unsaved_matches_keeps_its_line_clear",
        "test_review",
        "test_table_sidebar",
    ),
    "tests/ui/test_learning_scenes.py": (
        "test_all_rules_pages_draw_in_japanese_and_ukrainian",
        "test_tutorial_by_keyboard_alone",
        "test_tutorial_guide_fits_at_1024x640",
        "test_tutorial_header_names_the_lesson_not_a_round_of_a_match",
        "test_tutorial_is_the_real_table_with_a_stacked_deal",
        "test_tutorial_played_with_mouse_drags_reaches_the_yaku_and_stop",
        "test_tutorial_reached_from_the_title_guides_refuses_a_wrong_card_and_finishes",
        "test_tutorial_refuses_a_wrong_card_with_a_reason_and_changes_nothing",
    ),
    "tests/ui/test_ledger_scene.py": (
        "test_many_matches_scroll",
        "test_recorded_computer_matches_have_their_own_chip_and_review",
    ),
    "tests/ui/test_review_scene.py": (
        "test_help_level_sets_the_koikoi_panel_numbers",
        "test_help_level_travels_from_new_game_to_table_recorder_and_ledger",
        "test_help_levels_on_the_table",
        "test_play_this_deal_again_deals_the_same_cards_in_practice",
        "test_review_opens_from_the_ledger_steps_with_keys_and_is_cached",
        "test_review_opens_from_the_match_result",
        "test_review_this_round_from_the_round_summary",
        "test_scene_flag_opens_the_review_of_a_seeded_match",
        "test_the_dealers_name_by_his_hand_clears_the_cards_in_a_small_window",
    ),
    "tests/ui/test_review_verdicts.py": (
        "test_a_flagged_decision_shows_its_figure_and_the_accuracy_is_below_100",
    ),
    "tests/ui/test_scenes.py": (
        "test_every_cli_scene_opens_and_is_screenshot",
        "test_headless_frames_and_screenshot",
        "test_scene_flag_fast_forwards_to_the_end_screens",
    ),
    "tests/ui/test_seams.py": (
        "test_a_language_change_mid_match_rewords_the_whole_table",
        "test_a_match_started_in_ukrainian_continues_in_english",
        "test_a_typed_name_stays_as_typed_across_languages",
        "test_continue_rebuilds_the_log_and_the_field_order_and_plays_on",
    ),
    "tests/ui/test_sound_cues.py": (
        "test_settings_sliders_and_mute_change_the_player_live_and_are_saved",
        "test_the_app_opens_one_player_after_the_window",
        "test_the_table_cues_each_animated_moment_in_order",
    ),
    "tests/ui/test_gesture.py": ("test_commands_come_in_a_lawful_order",),
    "tests/ui/test_prompt_at_once.py": (
        "test_the_question_opens_with_the_cards_at_rest_and_the_hint_matches_the_step",
    ),
    "tests/ui/test_table_log_facts.py": (
        "test_a_computer_move_is_told_once_with_its_reason_after_it_and_again_on_continue",
    ),
    "tests/ui/test_table.py": (
        "test_autoplay_whole_match_through_scenes",
        "test_f11_fullscreen_twice_recomputes_the_layout_and_stays_playable",
        "test_resize_rerasterises_the_cards_at_the_new_size",
    ),
    "tests/ui/test_table_glance.py": (
        "test_round_summary_tallies_centred_and_fills_the_screen",
        "test_table_text_fits_at_1024x640",
        "test_thinking_is_said_only_when_the_table_has_caught_up",
    ),
    "tests/ui/test_table_modes.py": ("test_first_dealer_cards_turn_one_by_one_then_the_result",),
    "tests/ui/test_tracker.py": ("test_every_tick_is_a_yaku_the_engine_scores",),
    "tests/ui/test_unsaved.py": (
        "test_refused_match_is_told_at_its_end_and_at_quit_then_exported_and_retried",
    ),
}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the :data:`SLOW` tests ``slow``, and every test neither ``slow`` nor ``xvfb``
    ``quick`` (``tests/test_tiers.py`` checks that each name in :data:`SLOW` is a test)."""
    root = config.rootpath
    for item in items:
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        names = SLOW.get(path, ())
        if "*" in names or item.name.partition("[")[0] in names:
            item.add_marker(pytest.mark.slow)
        if not any(item.iter_markers("slow")) and not any(item.iter_markers("xvfb")):
            item.add_marker(pytest.mark.quick)
