"""The reports and the statistics in Russian (``NARDY_ANALYZE_LANG=ru`` or ``i18n.set_language("ru")``):
``validate``'s text report and its summary's plural forms, ``--explain``'s board legend, the HTML report and
its replayer, ``show`` in every ``--as``, the SVG board, ``stats``' terminal table and markdown (headings and
word values in Russian, CSV and JSON columns unchanged), the plot's texts; and the English of the same
outputs unchanged (the interface words too).  The slow test renders the Russian HTML report in headless
chromium (docs/i18n.md)."""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import EXAMPLES
from nardy_analyze import i18n

CYRILLIC = re.compile(r"[а-яё]", re.I)
RULE_FILES = sorted((EXAMPLES / "rules").glob("*.ngn"))       # each breaks one rule: one error per file


# the command line in a process of its own, in Russian (or English), 200 columns wide
RU = dict(env={"NARDY_ANALYZE_LANG": "ru", "COLUMNS": "200"})
EN = dict(env={"NARDY_ANALYZE_LANG": "en", "COLUMNS": "200"})


def english_words(text: str) -> list[str]:
    """Runs of three or more English words outside the interface words (rule ids, options, names)."""
    return re.findall(r"\b[a-z]{3,}(?: [a-z]{3,}){2,}\b", text)


# ------------------------------------------------------------------------------------------ validate

@pytest.mark.parametrize("count, word", [(1, "1 ошибка"), (2, "2 ошибки"), (5, "5 ошибок")])
def test_validate_summary_plural_forms(tmp_path, count, word, cli):
    for f in RULE_FILES[:count]:
        shutil.copy(f, tmp_path / f.name)
    r = cli.subprocess("validate", str(tmp_path), **RU)
    last = r.stdout.strip().splitlines()[-1]
    files = {1: "1 файл,", 2: "2 файла,", 5: "5 файлов,"}[count]
    games = {1: "1 партия,", 2: "2 партии,", 5: "5 партий,"}[count]
    assert last.startswith(files) and games in last, last
    assert f": {word}, 0 предупреждений" in last, last
    # the findings keep their interface: path:line:col: rule-id: ...
    assert all(re.match(r"\S+:\d+:\d+: [a-z0-9-]+: ", ln) for ln in r.stdout.splitlines()[:-1]), r.stdout
    assert r.returncode == 1


def test_validate_clean_summary_and_verbose_lines(cli):
    r = cli.subprocess("validate", str(EXAMPLES / "selfplay-7pt.mat"), "-v", **RU)
    assert r.returncode == 0
    lines = r.stdout.strip().splitlines()
    assert lines[0].endswith(": запись, 4 партии, 0 ошибок, 0 предупреждений"), lines[0]
    assert re.fullmatch(r"1 файл, 4 партии, \d+ ход(а|ов)?: ошибок нет, 0 предупреждений", lines[-1]), lines[-1]


def test_text_writer_plural_forms_in_process(russian):
    """The counts of the summary in each of the three Russian forms (1, 21; 2-4, 22; 5-20, 11, 0)."""
    from nardy_analyze.report import errors_count, files_count, games_count, turns_count, warnings_count

    assert [errors_count(n) for n in (1, 2, 5, 11, 21, 22, 0)] == [
        "1 ошибка", "2 ошибки", "5 ошибок", "11 ошибок", "21 ошибка", "22 ошибки", "0 ошибок"]
    assert [warnings_count(n) for n in (1, 3, 12)] == ["1 предупреждение", "3 предупреждения", "12 предупреждений"]
    assert [files_count(n) for n in (1, 4, 14)] == ["1 файл", "4 файла", "14 файлов"]
    assert [games_count(n) for n in (21, 23, 25)] == ["21 партия", "23 партии", "25 партий"]
    assert [turns_count(n) for n in (101, 102, 111)] == ["101 ход", "102 хода", "111 ходов"]


def test_text_writer_english_unchanged(english):
    from nardy_analyze.report import errors_count, files_count

    assert (errors_count(1), errors_count(2), files_count(5)) == ("1 error(s)", "2 error(s)", "5 file(s)")


def test_explain_board_legend_in_russian(cli):
    r = cli.subprocess("validate", str(EXAMPLES / "club-night.mat"), "--explain", **RU)
    out = r.stdout
    assert "    | позиция перед ходом, бросок 6-4:" in out
    assert "    |   X = Bob (ходит, своя нумерация), O = Alice" in out
    assert re.search(r"бар: X\d+ O\d+   выброшено: X\d+ O\d+   Position ID программы gnubg \(ходит X\): \S{14}",
                     out)
    assert "    | разрешённые ходы, например: 14/8 14/10;" in out
    assert "[партия 1, ход 18, Bob]" in out
    assert "dice-mismatch:" in out                   # the rule id stays
    assert "position before the play" not in out and "own numbering" not in out


def test_explain_long_nardy_legend_in_russian(tmp_path, cli):
    r = cli.subprocess("validate", str(EXAMPLES / "rules" / "head-rule.ngn"), "--explain", **RU)
    assert "оба ходят 24 -> 1 в своей нумерации" in r.stdout, r.stdout
    assert "голова O, её 24, — это 12 у X" in r.stdout


def test_warning_severity_word(tmp_path, cli):
    r = cli.subprocess("validate", str(EXAMPLES), **RU)
    warned = [ln for ln in r.stdout.splitlines() if ": предупреждение: " in ln]
    assert warned, r.stdout
    assert ", 1 предупреждение" in r.stdout.strip().splitlines()[-1]


def test_json_and_sarif_keep_interface_but_translate_human_text(tmp_path, cli):
    (tmp_path / "notes.txt").write_text("not a record\n")
    shutil.copy(RULE_FILES[0], tmp_path / RULE_FILES[0].name)
    doc = json.loads(cli.subprocess("validate", str(tmp_path), "--format", "json", **RU).stdout)
    assert set(doc) == {"version", "summary", "files", "findings", "skipped", "unreadable", "argument_errors"}
    assert doc["findings"][0]["severity"] == "error" and doc["findings"][0]["rule"] == "bear-off-inexact"
    sarif = json.loads(cli.subprocess("validate", str(tmp_path), "--format", "sarif", **RU).stdout)
    results = sarif["runs"][0]["results"]
    assert results[0]["level"] == "error" and results[0]["ruleId"] == "bear-off-inexact"
    notes = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notes and all(n["message"]["text"].startswith("пропущен: ") for n in notes if n["level"] == "note")


# ------------------------------------------------------------------------------------------ HTML

def test_html_report_in_russian(cli):
    r = cli.subprocess("validate", str(EXAMPLES), "--format", "html", **RU)
    page = r.stdout
    assert page.startswith('<!DOCTYPE html>\n<html lang="ru">')
    assert "<title>отчёт nardy-analyze</title>" in page
    assert "<h1>nardy-analyze: отчёт о проверке записей</h1>" in page
    assert "<tr><th>файлы</th><th>партии</th><th>ходы</th><th>ошибки</th><th>предупреждения</th></tr>" in page
    assert "<small>(короткие нарды, 4 партии)</small>" in page and "<small>(длинные нарды, 1 партия)</small>" in page
    assert "замечаний нет" in page
    assert "воспроизвести партию отсюда" in page
    assert "позиция перед ходом: ходит Bob, бросок 6-4" in page           # a board's title
    assert "Position ID программы gnubg <code>" in page
    assert ">выбр 0</text>" in page                                      # the SVG board's label
    assert "(нумерация, ходит)</text>" in page
    assert 'title="предыдущий шаг (стрелка влево)"' in page and "доска со стороны" in page
    assert '<div class="rp-head">Воспроизведение <button type="button" data-go="close">закрыть</button>' in page
    # the replayer's script: every English text replaced, the plural rule of the catalog in place
    assert 'Замечания\\u003c/b>' in page and "var PL=function(n){return +(n % 10 == 1" in page
    for english in ('"Score: "', '"Pips: "', "'s side", "the player to act", '"<b>Findings</b>"',
                    '" (numbering, to play)"', "replay the game from here", "position before the play"):
        assert english not in page, english
    assert "Строка " in page and "матч до " in page


def test_html_report_english_unchanged(cli):
    page = cli.subprocess("validate", str(EXAMPLES), "--format", "html", **EN).stdout
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert "<h1>nardy-analyze validation report</h1>" in page and '"Score: "' in page
    assert "var PL=" not in page


def test_replayer_script_pieces_each_found_once(russian):
    """Each English piece the translation replaces is in the script exactly once (a changed script would
    leave the Russian page with English words otherwise)."""
    from nardy_analyze.report import replayer

    for english, translated in replayer._js_texts():
        assert replayer._JS.count(english) == 1, english
        assert translated != english or not CYRILLIC.search(translated)
    assert replayer.script("en") == replayer._JS


def test_replayer_script_runs_under_node_if_available(russian, tmp_path):
    """The Russian script is valid JavaScript (parsed by node when it is installed)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    from nardy_analyze.report import replayer

    f = tmp_path / "s.js"
    f.write_text(replayer.script())
    r = subprocess.run([node, "--check", str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_replayer_plural_of_points(russian):
    """The result line of the replayer picks the Russian form of the points by the catalog's rule."""
    from nardy_analyze.report import replayer

    expr, samples = replayer._plural_rule()
    assert samples == [1, 2, 0] and "n % 10 == 1" in expr
    js = replayer.script()
    assert "очко" in js and "очка" in js and "очков" in js


# ------------------------------------------------------------------------------------------ show

SHOW_FILE = EXAMPLES / "club-night.mat"


def test_show_text_in_russian(cli):
    out = cli.subprocess("show", str(SHOW_FILE), "--game", "1", "--move", "3", **RU).stdout
    lines = out.splitlines()
    assert lines[0] == "партия 1, ход 3: ходит Alice, бросок 2-1 (в записи ход 2, строка 10)"
    assert lines[1] == "X = Alice (ходит, своя нумерация), O = Bob"
    assert "куб 1 посередине; счёт Alice 0 - Bob 0, матч до 5 очков" in lines
    assert any(ln.startswith("Position ID: ") and "   Match ID: " in ln for ln in lines)
    assert any(ln.startswith("XGID=") for ln in lines)
    final = cli.subprocess("show", str(EXAMPLES / "long-first-66.ngn"), **RU).stdout
    assert final.splitlines()[0] == "партия 1, конечная позиция"
    assert "(бросал последним, своя нумерация)" in final and "(игра на деньги)" in final


def test_show_svg_in_russian(cli):
    svg = cli.subprocess("show", str(SHOW_FILE), "--as", "svg", "--game", "1", "--move", "3", **RU).stdout
    assert 'aria-label="партия 1, ход 3: ходит Alice, бросок 2-1 (в записи ход 2, строка 10)"' in svg
    assert "(нумерация, ходит)</text>" in svg and ">выбр 0</text>" in svg
    assert "off 0" not in svg and "to play" not in svg


def test_show_html_in_russian(cli):
    page = cli.subprocess("show", str(SHOW_FILE), "--as", "html", **RU).stdout
    assert page.startswith('<!DOCTYPE html>\n<html lang="ru">')
    assert "матч до 5 очков, 3 партии" in page
    assert "проверка validate: 4 ошибки. Клавиши: &larr; &rarr; — шаг" in page
    assert "&middot; воспроизведение nardy-analyze</title>" in page
    assert 'title="первая позиция партии (Home)"' in page


def test_show_ids_keep_their_form_and_refuse_in_russian(cli):
    ids = cli.subprocess("show", str(SHOW_FILE), "--as", "gnubg", **RU).stdout.strip()
    assert re.fullmatch(r"[A-Za-z0-9+/]{14}:[A-Za-z0-9+/]{12}", ids)
    assert cli.subprocess("show", str(SHOW_FILE), "--as", "xgid", **RU).stdout.startswith("XGID=")
    r = cli.subprocess("show", str(EXAMPLES / "long-first-66.ngn"), "--as", "xgid", **RU)
    assert r.returncode != 0
    assert "XGID описывает только позиции коротких нард, а это партия длинных нард" in r.stderr
    r = cli.subprocess("show", str(SHOW_FILE), "--game", "9", **RU)
    assert "партии 9 нет; в записи партии 1-3" in r.stderr


def test_show_english_unchanged(cli):
    out = cli.subprocess("show", str(SHOW_FILE), "--game", "1", "--move", "3", **EN).stdout
    assert out.splitlines()[0] == "game 1, move 3: Alice to play 21 (row 2, line 10)"
    assert "cube 1 centred; score Alice 0 - Bob 0 in a 5-point match" in out


# ------------------------------------------------------------------------------------------ stats

def test_stats_table_and_markdown_headings_in_russian(cli):
    table = cli.subprocess("stats", str(EXAMPLES), **RU).stdout
    head = table.splitlines()[0]
    assert "игрок" in head and "партии" in head and "доля побед" in head, head
    assert "win_rate" not in head
    md = cli.subprocess("stats", str(EXAMPLES), "--format", "markdown", "--by", "game", **RU).stdout
    first = md.splitlines()[0]
    assert first.startswith("| файл | партия | матч | вариант | дата |"), first
    assert "| победа |" in md and "| поражение |" in md          # the result column's words
    rows = [ln.split(" | ") for ln in md.splitlines()[2:]]
    assert rows


def test_stats_csv_and_json_columns_unchanged(cli):
    en = cli.subprocess("stats", str(EXAMPLES), "--format", "csv", **EN).stdout
    ru = cli.subprocess("stats", str(EXAMPLES), "--format", "csv", **RU).stdout
    assert ru == en and ru.startswith("player,games,")
    doc = json.loads(cli.subprocess("stats", str(EXAMPLES), "--format", "json", "--by", "game", **RU).stdout)
    assert {"player", "result", "kind"} <= set(doc[0]) and doc[0]["result"] in ("win", "loss", "draw", None)


def test_write_table_notes_in_russian(russian):
    import pandas as pd
    from nardy_analyze.stats import write_table

    df = pd.DataFrame({"player": ["Анна", "Bob"], "games": [3, 2], "wins": [2, 1], "win_rate": [0.67, 0.5]})
    buf = io.StringIO()
    write_table(df, "player", buf, width=30, columns=["player", "games", "wins", "win_rate"], total=1500)
    out = " ".join(buf.getvalue().split())
    assert "(ещё 1 столбец не помещается в терминал: доля побед (win_rate); --format csv или markdown покажет все столбцы)" \
        in out, out
    assert "(первые 2 из 1,500 строк; --format csv, json, parquet или markdown выдаст все строки)" in out


def test_plot_labels_in_russian(russian, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from nardy_analyze import stats, statsrun

    players = statsrun.players([str(EXAMPLES)])
    texts: list[str] = []
    real_close = plt.close

    def keep(fig=None):
        for ax in fig.axes:
            texts.extend([ax.get_title(), ax.get_xlabel()]
                         + [t.get_text() for t in ax.get_yticklabels()] + [t.get_text() for t in ax.texts])
            legend = ax.get_legend()
            if legend is not None:
                texts.extend(t.get_text() for t in legend.get_texts())
        texts.append(fig._suptitle.get_text())
        real_close(fig)

    plt.close = keep
    try:
        stats.plot(players, str(tmp_path / "p.png"))
    finally:
        plt.close = real_close
    joined = "\n".join(texts)
    flat = [" ".join(t.split()) for t in texts]          # (a panel's title wraps within the panel)
    assert "доля каждой грани кости против честной 1/6 (полоса: 95%)" in flat
    assert "грань" in texts and "доля дублей, 95% интервал Уилсона" in flat
    assert "разница очков за партию (набрано − отдано)" in flat and "честная 1/6" in texts
    assert re.search(r"статистика nardy-analyze: \d+ игрок(а|ов)?", joined)
    assert re.search(r"\n\d+ (бросок|броска|бросков)\b", joined) and re.search(r"\n\d+ (партия|партии|партий)\b", joined)
    assert re.search(r"\d+ (кость|кости|костей), χ² p = ", joined)
    assert "(набрано " in joined and ", отдано " in joined
    assert not english_words(joined), english_words(joined)
    assert (tmp_path / "p.png").stat().st_size > 1000


# ------------------------------------------------------------------------------------------ browser

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"chromium not installed ({CHROMIUM})")
def test_russian_html_report_screenshot(tmp_path, cli):
    """The Russian report rendered by headless chromium, with the replayer open at a finding: a picture
    (kept as ``NARDY_SCREENSHOT`` when set, to be looked at) and the replayer's texts as the script wrote
    them (the DOM after the script ran)."""
    page = tmp_path / "report.html"
    page.write_text(cli.subprocess("validate", str(EXAMPLES), "--format", "html", **RU).stdout, encoding="utf-8")
    url = page.as_uri() + "#file=1&game=1&move=9"
    profile = tmp_path / "profile"
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", f"--user-data-dir={profile}"]
    env = {**os.environ, "HOME": str(tmp_path)}
    dom = subprocess.run(base + ["--virtual-time-budget=3000", "--dump-dom", url], capture_output=True, text=True,
                         timeout=180, env=env, stdin=subprocess.DEVNULL).stdout
    assert 'data-replayer="ready"' in dom
    assert "Счёт: Alice 0 – Bob 0, матч до 5 очков" in dom
    assert "Пипсы: Alice " in dom and "Куб: 1 (посередине)" in dom
    assert "сторона игрока Alice" in dom and "игрок, который ходит" in dom
    shot = Path(os.environ.get("NARDY_SCREENSHOT") or tmp_path / "report.png")
    subprocess.run(base + ["--window-size=1100,1400", "--virtual-time-budget=3000", f"--screenshot={shot}", url],
                   capture_output=True, timeout=180, env=env, stdin=subprocess.DEVNULL)
    assert shot.exists() and shot.stat().st_size > 20_000
