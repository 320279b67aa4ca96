"""tools/model/score_planner.py: planners' launches found among timed candidates (stand-in tools)."""
import io

from standin_features import FEATURES, LINES, TIMES, tool

import score_planner  # noqa: E402 (tools/model, put on the path by standin_features)

# a planner that walks case 0 A-fastest and plans case 1 as a launch nobody timed
PLANNER = """#!/bin/sh
cat >/dev/null
echo "0,0,3,64,8,8,2048,1.0,4,5,6,0,0,1,1,1,1,1,1,-1,0"
echo "1,0,2,64,8,8,2048,1.0,4,7,4,0,0,1,1,1,2,1,1,0,0"
"""


def test_picks_finds_timed_launches_and_leaves_untimed_ones_unknown(tmp_path):
    enum, planner = tool(tmp_path, "enum", FEATURES), tool(tmp_path, "planner", PLANNER)
    assert score_planner.picks(enum, LINES, io.StringIO(TIMES), planner) == {0: (1e-6, 1e-6), 1: (None, 3e-6)}
    # the timing tree's own choice
    assert score_planner.picks(enum, LINES, io.StringIO(TIMES), enum) == {0: (2e-6, 1e-6), 1: (3e-6, 3e-6)}
    # without the walk in the match, case 0's planned launch is either walk: the faster one counts
    assert score_planner.picks(enum, LINES, io.StringIO(TIMES), enum, noband=True)[0] == (1e-6, 1e-6)
