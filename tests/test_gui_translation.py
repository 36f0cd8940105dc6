"""The window in German: its texts go through Qt's translation functions, the shipped
translation is complete and up to date, Settings picks the language, and the command
line stays English."""

import ast
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QApplication, QLabel

from simgui.core.search.groups import Member
from simgui.core.settings import Settings, load_settings, save_settings
from simgui.gui.translation import (
    CHOICES, i18n_dir, install_translation, language_for, remove_translation,
)

ROOT = Path(__file__).resolve().parents[1]
GUI = ROOT / "simgui" / "gui"
TS = i18n_dir() / "simgui_de.ts"
QM = i18n_dir() / "simgui_de.qm"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%n|%v|%m|%p")


def _tool(name: str) -> str | None:
    """A PySide6 tool (pyside6-lupdate, pyside6-lrelease) beside this Python, or on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def _messages(path: Path) -> list[tuple[str, str, ET.Element]]:
    """(context, source, the translation element) of every message of a .ts file."""
    found = []
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found.append((name, message.findtext("source") or "", message.find("translation")))
    return found


@pytest.fixture
def german(qtbot):
    """German installed in the running application for one test, then taken out again."""
    app = QApplication.instance()
    translators = install_translation("de", app)
    assert translators, "simgui_de.qm did not load"
    yield translators
    remove_translation(translators, app)


# -- the language chosen -------------------------------------------------------------------


def test_system_default_follows_the_system_language():
    austria = QLocale(QLocale.Language.German, QLocale.Country.Austria)
    assert language_for("system", austria) == "de"
    assert language_for("system", QLocale(QLocale.Language.English,
                                          QLocale.Country.UnitedStates)) == "en"
    assert language_for("system", QLocale(QLocale.Language.French)) == "en"  # none shipped
    # a choice made in Settings wins over the system's language
    assert language_for("en", QLocale(QLocale.Language.German)) == "en"
    assert language_for("de", QLocale(QLocale.Language.English)) == "de"
    assert language_for("klingon", QLocale(QLocale.Language.German)) == "de"  # unknown: system


def test_english_installs_no_translation(qtbot):
    assert install_translation("en") == []


def test_the_language_is_a_setting_that_defaults_to_the_system(tmp_path):
    assert Settings().language == "system"
    path = tmp_path / "settings.json"
    save_settings(Settings(language="de"), path)
    assert load_settings(path).language == "de"
    path.write_text(json.dumps({"language": 3}))  # a wrong type is ignored
    assert load_settings(path).language == "system"


def test_settings_dialog_offers_the_languages(qtbot):
    from simgui.gui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    box = dialog.language
    assert [box.itemData(i) for i in range(box.count())] == list(CHOICES)
    assert [box.itemText(i) for i in range(box.count())] == [
        "System default", "English", "Deutsch"]
    assert box.currentData() == "system"
    box.setCurrentIndex(box.findData("de"))
    assert dialog.settings().language == "de"
    dialog.restore_defaults()
    assert dialog.settings().language == "system"
    labels = [label.text() for label in dialog.findChildren(QLabel)]
    assert any("next start" in text for text in labels)


def test_the_window_keeps_the_language_it_does_not_show(qtbot, window):
    window.settings.language = "de"
    assert window.current_settings().language == "de"
    new = window.current_settings()
    new.language = "en"
    window.apply_preferences(new)
    assert window.settings.language == "en"
    assert "next start" in window.status_text.text()


# -- the window in German ------------------------------------------------------------------


def test_window_menus_and_dialogs_show_german(qtbot, german, tmp_path):
    from simgui.gui.copies_view import CopiesModel
    from simgui.gui.folder_tree import FolderTreeDialog
    from simgui.gui.main_window import MainWindow
    from simgui.gui.settings_dialog import SettingsDialog

    w = MainWindow(settings_path=str(tmp_path / "settings.json"))
    qtbot.addWidget(w)
    w.show()
    menus = [a.text() for a in w.menuBar().actions()]
    assert menus == ["&Datei", "&Bearbeiten", "&Aktionen", "A&nsicht", "&Hilfe"]
    assert w.scan_action.text() == "&Scannen"
    assert w.undo_action.text() == "Bereinigung &rückgängig"
    assert [w.tabs.tabText(i) for i in range(w.tabs.count())] == [
        "Details", "Schlüsselraum", "Toleranzkurven", "Fingerabdruck-Abstände"]
    assert w.folders.title() == "Ordner" and w.tolerance.title() == "Toleranzen"
    assert "Fügen Sie zum Beginnen einen Ordner hinzu" in w.groups.empty.text()
    assert w.model.headerData(2, Qt.Orientation.Horizontal) == "Größe"

    dialog = SettingsDialog(w.current_settings(), w)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Einstellungen"
    assert dialog.language.itemText(0) == "Systemvorgabe"
    tree = FolderTreeDialog([str(tmp_path)], parent=w)
    qtbot.addWidget(tree)
    assert tree.windowTitle() == "Ordnerzustände"
    assert tree.set_state(str(tmp_path), "excluded") == ""
    assert tree.tree.topLevelItem(0).text(1) == "ausgeschlossen"
    copies = CopiesModel(w.model)  # its headers are a module-level table
    assert copies.headerData(6, Qt.Orientation.Horizontal) == "Behaltene Datei"


def test_window_shows_english_without_a_translation(qtbot, window):
    assert [a.text() for a in window.menuBar().actions()] == [
        "&File", "&Edit", "&Actions", "&View", "&Help"]


# -- the shipped translation ---------------------------------------------------------------


def test_every_message_is_translated_with_its_placeholders():
    messages = _messages(TS)
    assert len(messages) > 400
    problems = []
    for context, source, translation in messages:
        text = translation.text or "" if translation is not None else ""
        kind = translation.get("type") if translation is not None else "missing"
        if kind in ("unfinished", "obsolete", "vanished", "missing") or not text.strip():
            problems.append(f"{context}: {source!r} is not translated ({kind or 'empty'})")
            continue
        if sorted(PLACEHOLDER.findall(source)) != sorted(PLACEHOLDER.findall(text)):
            problems.append(f"{context}: {source!r} -> {text!r}: placeholders differ")
        if source.count("&") - source.count("&&") != text.count("&") - text.count("&&"):
            problems.append(f"{context}: {source!r} -> {text!r}: the accelerator & differs")
    assert not problems, "\n".join(problems)


def test_the_translation_is_up_to_date(tmp_path):
    """Every string the GUI modules mark is in the shipped .ts (and no other): a string
    newly wrapped in tr() without a translation fails here."""
    lupdate = _tool("pyside6-lupdate")
    if lupdate is None:
        pytest.skip("pyside6-lupdate is not installed")
    fresh = tmp_path / "fresh.ts"
    sources = sorted(str(p) for p in GUI.glob("*.py"))
    subprocess.run([lupdate, "-locations", "none", "-no-obsolete", *sources, "-ts", str(fresh)],
                   check=True, capture_output=True)
    wanted = {(c, s) for c, s, _ in _messages(fresh)}
    shipped = {(c, s) for c, s, _ in _messages(TS)}
    assert not wanted - shipped, f"not in {TS.name}: {sorted(wanted - shipped)}"
    assert not shipped - wanted, f"no longer in the code: {sorted(shipped - wanted)}"


def test_the_qm_is_compiled_from_the_ts(tmp_path):
    lrelease = _tool("pyside6-lrelease")
    if lrelease is None:
        pytest.skip("pyside6-lrelease is not installed")
    compiled = tmp_path / "simgui_de.qm"
    subprocess.run([lrelease, str(TS), "-qm", str(compiled)], check=True, capture_output=True)
    assert compiled.read_bytes() == QM.read_bytes(), (
        "simgui_de.qm is stale: run pyside6-lrelease (docs/translations.md)")


_SHOWN_CALLS = {"setText", "setToolTip", "setStatusTip", "setWindowTitle", "setPlaceholderText",
                "setTitle", "addRow", "addTab", "addAction", "addMenu", "set_status",
                "set_empty_text", "showMessage", "QLabel", "QPushButton", "QAction", "QCheckBox",
                "QGroupBox", "QDockWidget", "QToolBar", "QRadioButton", "setHeaderLabels"}


def test_no_shown_text_is_left_unwrapped():
    """A literal with words handed straight to a widget (not through tr or translate) is
    an English text a translation can never reach."""
    found = []
    for path in sorted(GUI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name not in _SHOWN_CALLS:
                continue
            for arg in node.args:
                items = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
                for item in items:
                    parts = item.values if isinstance(item, ast.JoinedStr) else [item]
                    text = "".join(p.value for p in parts if isinstance(p, ast.Constant)
                                   and isinstance(p.value, str))
                    if re.search(r"[A-Za-z]{3}", re.sub(r"<[^>]*>", "", text)):
                        found.append(f"{path.name}:{item.lineno}: {ast.unparse(item)[:60]}")
    allowed = {"main_window.py: 'simgui'"}  # the application's name
    found = [f for f in found if re.sub(r":\d+:", ":", f) not in allowed]
    assert not found, "\n".join(found)


# -- the command line ----------------------------------------------------------------------


def test_the_command_line_stays_english(tmp_path):
    config = tmp_path / "settings.json"
    save_settings(Settings(language="de"), config)
    env = dict(os.environ, SIMGUI_CONFIG=str(config), LANG="de_DE.UTF-8",
               LANGUAGE="de", LC_ALL="de_DE.UTF-8", SIMGUI_DB=str(tmp_path / "db.sqlite3"))
    done = subprocess.run([sys.executable, "-c", "import sys; from simgui.cli import main; "
                                                 "sys.exit(main(['--help']))"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout and "Verwendung" not in done.stdout
    modules = subprocess.run(
        [sys.executable, "-c", "import sys, simgui.cli; print('simgui.gui.translation' in "
                               "sys.modules)"], env=env, capture_output=True, text=True,
        timeout=120, cwd=ROOT)
    assert modules.stdout.strip() == "False", modules.stderr


# -- what a clean-up will do and did, in the window's language -----------------------------

_members = st.builds(
    lambda i, size, same: Member(i, f"/d/f{i}", size, 0, 1, i,
                                 b"h" if same else b"x" + bytes([i]), same, 0.0, 0,
                                 100.0 if same else 90.0),
    st.integers(0, 200), st.integers(0, 10**9), st.booleans())


@st.composite
def _plans(draw):
    from simgui.core.cleanup import Action
    from simgui.core.cleanup.plan import Operation, Plan, Refusal

    action = draw(st.sampled_from(list(Action)))
    kept = Member(999, "/d/kept", 5, 0, 1, 999, b"h", True, 0.0, 0, 100.0)
    ops = [Operation(action, g, m, dataclasses.replace(kept, size=m.size), draw(st.booleans()))
           for g, m in enumerate(draw(st.lists(_members, max_size=4)))]
    groups = draw(st.integers(1, 3)) if ops else 0
    refused = [Refusal(g, draw(st.sampled_from(["a reference", "gone"])))
               for g in range(draw(st.integers(0, 23)))]
    return Plan(action, ops, refused, {g: kept for g in range(groups)},
                left_alone=draw(st.integers(0, 3)), target_dir=draw(st.sampled_from(
                    [None, "/backup {x}"])), other_names=draw(st.integers(0, 2)),
                empty=draw(st.integers(0, 2)))


@given(_plans())
@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_window_describes_a_plan_as_the_core_does(qtbot, plan):
    from simgui.gui.plan_text import describe_plan

    assert describe_plan(plan) == plan.describe()


@given(st.integers(1, 99), st.sampled_from(["trash", "move", "undo"]), st.booleans(),
       st.lists(st.tuples(st.sampled_from(["done", "skipped", "failed"]),
                          st.integers(0, 10**7)), max_size=5))
@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_window_describes_a_batch_as_the_core_does(qtbot, batch_id, action, cancelled,
                                                       files):
    from simgui.core.cleanup.running import BatchResult, FileResult
    from simgui.gui.plan_text import describe_batch

    result = BatchResult(batch_id, action, [FileResult(f"/d/{i}", status, "why", size=size)
                                            for i, (status, size) in enumerate(files)],
                         cancelled)
    assert describe_batch(result) == result.describe().replace("Batch ", "Clean-up ", 1)


def test_a_plan_and_its_result_read_in_german(qtbot, german):
    from simgui.core.cleanup import Action
    from simgui.core.cleanup.plan import Operation, Plan
    from simgui.core.cleanup.running import BatchResult, FileResult
    from simgui.gui.plan_text import describe_batch, describe_plan

    kept = Member(0, "/d/a", 10, 0, 1, 1, b"h", True, 0.0, 0, 100.0)
    copy = dataclasses.replace(kept, index=1, path="/d/b", inode=2)
    plan = Plan(Action.TRASH, [Operation(Action.TRASH, 0, copy, kept, True)], [], {0: kept})
    assert describe_plan(plan).splitlines()[0] == (
        "1 Datei (10 B) in den Papierkorb verschieben; eine Datei der Gruppe bleibt.")
    result = BatchResult(3, "trash", [FileResult("/d/b", "done", size=10)])
    assert describe_batch(result).startswith("Bereinigung 3 (Papierkorb): 1 erledigt")


@st.composite
def _merges(draw):
    from simgui.core.cleanup.folder_merge import (
        BESIDE, COPY, ONLY, PREFERRED, TRASH_A, TRASH_B, MergePlan, MergeStep,
    )

    steps = [MergeStep(draw(st.sampled_from([COPY, TRASH_A, TRASH_B])), m, f"/b/{m.index}",
                       why=draw(st.sampled_from([ONLY, PREFERRED, BESIDE])))
             for m in draw(st.lists(_members, max_size=14))]
    refused = draw(st.sampled_from([[], ["B is inside A"], ["x", "y"]]))
    return MergePlan("/a", "/b", steps, refused)


@given(_merges())
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_window_describes_a_merge_as_the_core_does(qtbot, plan):
    from simgui.gui.plan_text import describe_merge

    assert describe_merge(plan) == plan.describe()
