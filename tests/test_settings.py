"""Settings survive a round trip, and a damaged file gives defaults instead of an error."""

import json

from simgui.core.settings import Settings, load_settings, save_settings


def test_round_trip(tmp_path):
    path = tmp_path / "conf" / "settings.json"
    s = Settings(folders=["/a", "/b"], references=["/a"], excludes=["*.tmp"], min_size=10,
                 key_tolerance=2.5, sum_tolerance=0.5, scheme="uniform", use_extensions=False,
                 marked=["/b/x"], window={"geometry": "abc"})
    save_settings(s, path)
    assert load_settings(path) == s
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]  # no temp file left


def test_missing_or_damaged_files_give_defaults(tmp_path):
    assert load_settings(tmp_path / "none.json") == Settings()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert load_settings(bad) == Settings()
    bad.write_text("[1, 2]")
    assert load_settings(bad) == Settings()


def test_wrong_types_and_unknown_keys_are_ignored(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"folders": "not a list", "key_tolerance": 2, "min_size": "x",
                                "use_extensions": 1, "future_option": True}))
    s = load_settings(path)
    assert s.folders == [] and s.key_tolerance == 2.0 and s.min_size == 0
    assert s.use_extensions is True  # 1 is not a bool: the default stays


def test_default_location_honours_the_environment(tmp_path, monkeypatch):
    from simgui.core.settings import default_settings_path
    monkeypatch.setenv("SIMGUI_CONFIG", str(tmp_path / "x.json"))
    assert default_settings_path() == tmp_path / "x.json"


def test_never_replaces_a_device_or_a_folder(tmp_path):
    import pytest
    with pytest.raises(OSError, match="is not a regular file; settings not saved"):
        save_settings(Settings(), tmp_path)  # a folder
    assert tmp_path.is_dir()


def test_non_finite_numbers_fall_back_to_the_defaults():
    from simgui.core.settings import Settings

    s = Settings.from_json('{"minhash_resemblance": NaN, "sum_tolerance": Infinity, '
                           '"key_tolerance": 2.5}')
    assert s.minhash_resemblance == Settings().minhash_resemblance
    assert s.sum_tolerance == Settings().sum_tolerance and s.key_tolerance == 2.5
