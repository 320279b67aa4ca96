"""A stand-in cuperm-plan-features and its candidates' times, shared by the tools/model scripts' tests
(test_candidate_join.py, test_score_planner.py). Case 0 has a banded and an A-fastest tile
(candidates 0 and 1), case 1 one rows launch."""
import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "model"))

LINES = ["8 4,4 1,0", "8 4,4,2 0,2,1"]
FEATURES = """#!/bin/sh
cat >/dev/null
if [ "$1" = --candidates ]; then
  echo "0,0,3,64,8,8,2048,1.0,4,5,6,0,8,1,1,1,1,1,1,-1,0"
  echo "0,1,3,64,8,8,2048,1.0,4,5,6,0,0,1,1,1,1,1,1,-1,0"
  echo "1,0,2,64,8,8,2048,1.0,4,8,3,0,0,1,1,1,2,1,1,0,0"
else
  echo "8 4,4 1,0 | tiled 5 6 0 8 | 4:1:4 | 4:4:1 | | 1 1 1"
  echo "8 4,4,2 0,2,1 | rows 8 3 0 0 | 4:1:1 | 2:4:8 | | 1 1 1"
fi
"""
TIMES = "case,candidate,seconds,copy_seconds,same,pipelined\n0,0,2e-6,1e-6,1,0\n0,1,1e-6,1e-6,1,0\n1,0,3e-6,1e-6,1,0\n"


def tool(tmp_path, name, text):
    """An executable script named name under tmp_path; its path."""
    t = tmp_path / name
    t.write_text(text)
    t.chmod(t.stat().st_mode | stat.S_IEXEC)
    return str(t)
