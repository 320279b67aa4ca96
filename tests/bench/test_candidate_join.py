"""tools/model/candidate_join.py: candidate times joined with a stand-in cuperm-plan-features."""
import io

from standin_features import FEATURES, LINES, TIMES, tool

import candidate_join  # noqa: E402 (tools/model, put on the path by standin_features)


def test_join_pairs_features_descriptions_and_times(tmp_path):
    feats, desc, secs = candidate_join.join(tool(tmp_path, "features", FEATURES), LINES, io.StringIO(TIMES))
    assert sorted(feats) == [0, 1] and sorted(feats[0]) == [0, 1]
    assert feats[0][1][12] == "0" and feats[0][0][12] == "8"  # the two walks of case 0
    assert desc[1].split("|")[1].split()[0] == "rows"
    assert secs[0] == {0: 2e-6, 1: 1e-6} and secs[1] == {0: 3e-6}
