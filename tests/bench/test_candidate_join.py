"""tools/model/candidate_join.py: candidate times joined with a stand-in cuperm-plan-features."""
import io
import os
import stat
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools", "model"))
import candidate_join  # noqa: E402

TOOL = """#!/bin/sh
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


def test_join_pairs_features_descriptions_and_times(tmp_path):
    tool = tmp_path / "features"
    tool.write_text(TOOL)
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    feats, desc, secs = candidate_join.join(str(tool), ["8 4,4 1,0", "8 4,4,2 0,2,1"], io.StringIO(TIMES))
    assert sorted(feats) == [0, 1] and sorted(feats[0]) == [0, 1]
    assert feats[0][1][12] == "0" and feats[0][0][12] == "8"  # the two walks of case 0
    assert desc[1].split("|")[1].split()[0] == "rows"
    assert secs[0] == {0: 2e-6, 1: 1e-6} and secs[1] == {0: 3e-6}
