"""The window shows a scan's identical copies as soon as they are known, then adds the
similar groups when the whole read ends, the status bar naming each stage (issue 25)."""

import numpy as np

WAIT_MS = 120_000  # numba may compile on a fresh machine


def make_tree(root):
    rng = np.random.default_rng(7)
    for folder in ("docs", "backup", "other"):
        (root / folder).mkdir(parents=True)
    for i in range(3):
        data = bytes(rng.integers(0, 256, 20_000 + 3000 * i, dtype=np.uint8))
        (root / "docs" / f"file{i}.bin").write_bytes(data)
        (root / "backup" / f"file{i}.bin").write_bytes(data)  # identical copy
        edited = bytearray(data) + b"appended"  # a similar file, of another size
        (root / "other" / f"file{i}.bin").write_bytes(bytes(edited))
    (root / "other" / "alone.txt").write_text("nothing like the others " * 200)


def test_identical_groups_show_first_then_the_similar_ones(qtbot, window, tmp_path,
                                                           monkeypatch):
    root = tmp_path / "tree"
    make_tree(root)
    shown, statuses = [], []
    real_show, real_status = window._show_identical, window.set_status

    def show(p):
        real_show(p)
        table = window.model.table
        shown.append({"analysis": window.analysis, "groups": len(table),
                      "all identical": bool(table.identical.all()),
                      "status": window.status_text.text()})
        window.grab().save(str(tmp_path / "identical-first.png"))

    def status(text):
        statuses.append(text)
        real_status(text)

    monkeypatch.setattr(window, "_show_identical", show)
    monkeypatch.setattr(window, "set_status", status)
    window.folders.add_folders([str(root)])
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.start_scan()
    assert window.analysis is not None, window.status_text.text()
    (early,) = shown
    # before the similar search: the three pairs of copies alone
    assert early["analysis"] is None and early["groups"] == 3 and early["all identical"]
    assert early["status"].startswith("Identical copies: 3 groups found")
    # the stages in order: identical copies, then the rest, then the groups
    first_identical = next(i for i, t in enumerate(statuses) if t.startswith("Identical copies"))
    reading = [i for i, t in enumerate(statuses) if t.startswith("Reading the rest")]
    assert reading and reading[0] > first_identical
    # the full results: the similar files joined the copies
    table = window.table
    assert len(table) == 3 and not table.identical.all()
    assert window._identical_preview is False


def test_a_cancelled_scan_leaves_no_identical_preview(qtbot, window, tmp_path, monkeypatch):
    root = tmp_path / "tree"
    make_tree(root)
    from simgui.gui import jobs

    real = jobs.scan_and_analyse

    def cancelled_after_identical(*args, progress=None, **kwargs):
        def cancel_on_reading(p):
            keep_going = progress(p)
            return keep_going and p.phase != "reading"  # the user pressed Cancel then

        return real(*args, progress=cancel_on_reading, **kwargs)

    monkeypatch.setattr(jobs, "scan_and_analyse", cancelled_after_identical)
    window.folders.add_folders([str(root)])
    with qtbot.waitSignal(window.tasks.busy_changed, timeout=WAIT_MS,
                          check_params_cb=lambda busy: not busy):
        window.start_scan()
    assert window.status_text.text().startswith("Cancelled")
    assert window._identical_preview is False and window.table is None
    assert window.model.table is None
