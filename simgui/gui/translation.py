"""The window's language: simgui's own translations (``i18n/simgui_<lang>.qm``, made
from the ``.ts`` files by ``pyside6-lrelease``) and Qt's for its standard buttons.

Settings › Language picks "system" (follow ``QLocale.system()``), "en" or "de"; the
choice is read once at start-up, before any widget is made, since every widget takes
its texts when it is built.  The command line never loads a translation: it stays
English.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

#: the languages simgui ships, besides English (the source texts)
TRANSLATED = ("de",)
#: what Settings › Language offers
CHOICES = ("system", "en", *TRANSLATED)


def i18n_dir() -> Path:
    """Where the compiled translations lie (package data; in the bundle too)."""
    return Path(__file__).resolve().parent / "i18n"


def language_for(choice: str, system: QLocale | None = None) -> str:
    """The language to show for the user's ``choice``: "en" or one of :data:`TRANSLATED`.
    "system" (or anything unknown) follows ``system`` (default: ``QLocale.system()``):
    its first UI language simgui has, else English."""
    if choice in ("en", *TRANSLATED):
        return choice
    locale = system if system is not None else QLocale.system()
    for name in locale.uiLanguages():  # "de-DE", "de", "en-US", ... best first
        code = name.replace("_", "-").split("-")[0].lower()
        if code in TRANSLATED:
            return code
        if code == "en":
            return "en"
    return "en"


def install_translation(choice: str, app: QCoreApplication | None = None,
                        system: QLocale | None = None) -> list[QTranslator]:
    """Install the translators for ``choice`` into ``app`` (default: the running one);
    the installed ones, which the caller keeps (a translator must outlive its use).
    English, or a missing ``.qm``, installs none: the texts stay as written."""
    app = app or QCoreApplication.instance()
    language = language_for(choice, system)
    if app is None or language == "en":
        return []
    installed = []
    own = QTranslator(app)
    if own.load(str(i18n_dir() / f"simgui_{language}.qm")):
        app.installTranslator(own)
        installed.append(own)
    else:
        return []
    qt = QTranslator(app)  # Qt's own: OK, Cancel, Restore Defaults, the file dialog
    if qt.load(f"qtbase_{language}",
               QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        installed.append(qt)
    return installed


def remove_translation(translators: list[QTranslator],
                       app: QCoreApplication | None = None) -> None:
    """Take ``translators`` out again (tests switch languages in one process)."""
    app = app or QCoreApplication.instance()
    for translator in translators:
        if app is not None:
            app.removeTranslator(translator)
