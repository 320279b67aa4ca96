"""tools/model/score_planner.py: planners' launches found among timed candidates (stand-in tools)."""
import io
import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "model"))
import score_planner  # noqa: E402

# case 0: a banded and an A-fastest tile (candidates 0, 1); case 1: one rows launch
ENUM = """#!/bin/sh
cat >/dev/null
if [ "$1" = --candidates ]; then
  echo "0,0,3,64,8,8,2048,1.0,4,5,6,0,8,1,1,1,1,1,1,-1,0"
  echo "0,1,3,64,8,8,2048,1.0,4,5,6,0,0,1,1,1,1,1,1,-1,0"
  echo "1,0,2,64,8,8,2048,1.0,4,8,3,0,0,1,1,1,2,1,1,0,0"
else
  echo "x"; echo "y"
fi
"""
# a planner that walks case 0 A-fastest and plans case 1 as a launch nobody timed
PLANNER = """#!/bin/sh
cat >/dev/null
echo "0,0,3,64,8,8,2048,1.0,4,5,6,0,0,1,1,1,1,1,1,-1,0"
echo "1,0,2,64,8,8,2048,1.0,4,7,4,0,0,1,1,1,2,1,1,0,0"
"""
TIMES = "case,candidate,seconds,copy_seconds,same,pipelined\n0,0,2e-6,1e-6,1,0\n0,1,1e-6,1e-6,1,0\n1,0,3e-6,1e-6,1,0\n"


def tool(tmp_path, name, text):
    t = tmp_path / name
    t.write_text(text)
    t.chmod(t.stat().st_mode | stat.S_IEXEC)
    return str(t)


def test_picks_finds_timed_launches_and_leaves_untimed_ones_unknown(tmp_path):
    enum, planner = tool(tmp_path, "enum", ENUM), tool(tmp_path, "planner", PLANNER)
    lines = ["8 4,4 1,0", "8 4,4,2 0,2,1"]
    p = score_planner.picks(enum, lines, io.StringIO(TIMES), planner)
    assert p == {0: (1e-6, 1e-6), 1: (None, 3e-6)}
    same = score_planner.picks(enum, lines, io.StringIO(TIMES), enum)  # the timing tree's own choice
    assert same == {0: (2e-6, 1e-6), 1: (3e-6, 3e-6)}
    # without the walk in the match, case 0's planned launch is either walk: the faster one counts
    assert score_planner.picks(enum, lines, io.StringIO(TIMES), enum, noband=True)[0] == (1e-6, 1e-6)
