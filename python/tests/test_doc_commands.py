"""Every command the documentation shows runs as written: the ```sh blocks
of README.md and docs/*.md, the `$ polyrt ...` transcripts (their output
compared with what the page shows), the commands in the examples' header
comments and the worked examples of `polyrt --help`.

A ```sh block that cannot run here says why on the line before its fence:
`<!-- docs test: skip, REASON -->` (it installs, needs a GPU or a cluster,
or runs for an hour). A synopsis with placeholders (FILE, [--option]) is a
```text block, not a command."""

import os
import pathlib
import re
import subprocess

import pytest

from conftest import BUILD, ROOT, built

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIP = re.compile(r"<!-- docs test: skip, (.+?) -->")


def fenced_blocks(page):
    """(tag, text, line, skip reason or None) of each fenced block of a page."""
    lines = page.read_text().split("\n")
    blocks, at = [], 0
    while at < len(lines):
        fence = re.match(r"^( *)```(\S*)", lines[at])
        if not fence:
            at += 1
            continue
        indent, tag, start = len(fence.group(1)), fence.group(2), at
        body = []
        at += 1
        while at < len(lines) and not lines[at].startswith(" " * indent + "```"):
            body.append(lines[at][indent:])
            at += 1
        before = lines[start - 1] if start else ""
        reason = SKIP.search(before)
        blocks.append((tag, "\n".join(body) + "\n", start + 1, reason.group(1) if reason else None))
        at += 1
    return blocks


def earlier_shell(page, line):
    """The runnable ```sh blocks of `page` above `line`: what a reader has
    run by then (a tutorial's files), run again before the block at `line`."""
    return [text for tag, text, at, reason in fenced_blocks(page) if tag == "sh" and not reason and at < line]


def shell_blocks():
    for page in PAGES:
        for tag, text, line, reason in fenced_blocks(page):
            if tag == "sh":
                yield pytest.param(earlier_shell(page, line), text, reason, id=f"{page.name}:{line}")


def transcripts():
    """(earlier blocks, command, expected lines) of every `$ polyrt ...`
    line of an untagged block."""
    for page in PAGES:
        for tag, text, line, reason in fenced_blocks(page):
            if tag or "\n$ " not in "\n" + text:
                continue
            parts = re.split(r"^\$ (.*)$", text, flags=re.M)
            for k in range(1, len(parts), 2):
                yield pytest.param(earlier_shell(page, line), parts[k], parts[k + 1].strip("\n").split("\n"),
                                   reason, id=f"{page.name}:{line}:{parts[k][:40]}")


def example_commands():
    """The `polyrt ...` commands in each example's header comment: in
    backticks (across comment lines) or on indented lines of their own."""
    for example in sorted((ROOT / "examples").glob("*.polydat")):
        header = []
        for text in example.read_text().split("\n"):
            if not text.startswith("#"):
                break
            header.append(text[2:] if text.startswith("# ") else text[1:])
        joined = re.sub(r"\\\n\s*", "", "\n".join(header))
        found = re.findall(r"`(polyrt [^`]+)`", joined.replace("\n", " "))
        found += [m.strip() for m in re.findall(r"^ +(polyrt .+)$", joined, flags=re.M)]
        for command in found:
            yield pytest.param(command, id=f"{example.name}:{command[:40]}")


def help_examples():
    """The worked examples of `polyrt --help` (its lines that start with `polyrt`)."""
    cli = BUILD / "cli" / "polyrt"
    if not cli.exists():
        return []
    usage = subprocess.run([cli, "--help"], capture_output=True, text=True).stdout
    return [pytest.param(m, id=m[:50]) for m in re.findall(r"^  (polyrt \S.*)$", usage, flags=re.M)]


@pytest.fixture
def workdir(tmp_path):
    """A directory shaped like polyrt's source tree for the commands: the
    examples, the build and the Python environment linked in, `polyrt` on
    the PATH."""
    for name in ("examples", "build", "build-python"):
        os.symlink(ROOT / name, tmp_path / name)
    env = dict(os.environ)
    env["PATH"] = f"{built('cli/polyrt').parent}:{env['PATH']}"
    env.pop("POLYRT_LIBCUDA", None)  # what a user without a GPU sees
    return tmp_path, env


def sh(script, workdir):
    cwd, env = workdir
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_pages_show_commands():
    assert len(list(shell_blocks())) >= 8
    assert len(list(transcripts())) >= 3
    assert len(list(example_commands())) >= 4


def run_earlier(blocks, workdir):
    for block in blocks:
        result = sh(block, workdir)
        assert result.returncode == 0, f"an earlier block failed:\n{block}\n{result.stderr}"


@pytest.mark.parametrize("earlier, script, reason", shell_blocks())
def test_shell_block_runs(earlier, script, reason, workdir):
    if reason:
        pytest.skip(reason)
    run_earlier(earlier, workdir)
    result = sh(script, workdir)
    assert result.returncode == 0, f"{script}\n{result.stderr}"


def matches(expected, actual):
    """`...` alone on a line stands for any lines; within a line, for any text."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(piece) for piece in expected[0].rstrip().split("..."))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(expected[1:], actual[1:])


@pytest.mark.parametrize("earlier, command, expected, reason", transcripts())
def test_transcript_matches(earlier, command, expected, reason, workdir):
    if reason:
        pytest.skip(reason)
    run_earlier(earlier, workdir)
    result = sh(command + " 2>&1", workdir)
    assert result.returncode == 0, result.stdout
    actual = result.stdout.rstrip("\n").split("\n")
    assert matches(expected, actual), "\n".join(["expected:", *expected, "got:", *actual])


@pytest.mark.parametrize("command", example_commands())
def test_example_header_command_runs(command, workdir):
    cwd, _ = workdir
    result = sh(command.replace(" DIR", f" {cwd / 'out'}") + " > /dev/null", workdir)
    assert result.returncode == 0, f"{command}\n{result.stderr}"


@pytest.mark.parametrize("command", help_examples())
def test_help_example_runs(command, workdir):
    result = sh(command + " > /dev/null", workdir)
    assert result.returncode == 0, f"{command}\n{result.stderr}"


def test_help_has_worked_examples():
    assert 4 <= len(help_examples()) <= 6
