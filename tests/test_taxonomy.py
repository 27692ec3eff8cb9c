import pytest

from refusalbench import taxonomy as t


def test_six_classes_three_intensities_eighteen_cells():
    assert len(t.CLASSES) == 6 and t.INTENSITIES == ("LOW", "MEDIUM", "HIGH")
    assert len(t.cells()) == 18 and t.cells()[0] == ("P-Ambiguity", "LOW")


def test_ground_truth_rule():
    for cls in t.CLASSES:
        assert t.ground_truth(cls, "LOW") == "ANSWER_CORRECTLY"
        assert t.ground_truth(cls, "MEDIUM") == t.ground_truth(cls, "HIGH") == t.CLASS_TO_CODE[cls]
    assert t.ground_truth("P-MissingInfo", "HIGH") == "REFUSE_INFO_MISSING_IN_CONTEXT"


def test_codes_and_labels():
    assert len(t.REFUSAL_CODES) == 7 and t.REFUSAL_CODES[-1] == "REFUSE_OTHER"
    assert "REFUSE_OTHER" not in t.GROUND_TRUTH_LABELS and len(t.GROUND_TRUTH_LABELS) == 7
    assert {t.CODE_TO_CLASS[c] for c in t.CLASS_TO_CODE.values()} == set(t.CLASSES)


def test_targets():
    assert t.target("P-FalsePremise") == "Query" and t.target("P-Contradiction", multi_passage=True) == "Context"
    assert (
        t.target("P-GranularityMismatch") == "Query<->Context" and t.target("P-GranularityMismatch", True) == "Context"
    )


@pytest.mark.parametrize("bad", [("P-Nope", "LOW"), ("P-Ambiguity", "MODERATE")])
def test_unknown_class_or_intensity_is_a_clear_error(bad):
    with pytest.raises(t.TaxonomyError, match="Unknown"):
        t.ground_truth(*bad)
