import pytest

from refusalbench.generation.multipassage import EditError, apply_edits, edited_labels, label_map, normalise_label

PASSAGES = ["n0", "s0", "n1", "s1", "s2"]
SIGNAL, NOISE = [1, 3, 4], [0, 2]


def test_label_convention_s2_is_second_signal_passage():
    # S2 is 1-based within the signal passages: signal_indices[1] == stored index 3.
    assert label_map(SIGNAL, NOISE) == {"S1": 1, "S2": 3, "S3": 4, "N1": 0, "N2": 2}
    out, changed = apply_edits(PASSAGES, SIGNAL, NOISE, [{"passage": "S2", "perturbed_text": "EDIT"}])
    assert out == ["n0", "s0", "n1", "EDIT", "s2"]
    assert changed == ["S2"]


def test_noise_label_and_unchanged_edit():
    out, changed = apply_edits(
        PASSAGES, SIGNAL, NOISE, [{"passage": "n1", "perturbed_text": "X"}, {"passage": "S1", "perturbed_text": "s0"}]
    )
    assert out[0] == "X" and changed == ["N1"]


@pytest.mark.parametrize("label", ["Passage S2", "[S2]", "s 2", "S-2"])
def test_normalise_label(label):
    assert normalise_label(label) == "S2"


@pytest.mark.parametrize(
    "edits",
    [
        [{"passage": "S4", "perturbed_text": "x"}],
        [{"passage": "Q1", "perturbed_text": "x"}],
        [{"passage": "S1", "perturbed_text": "a"}, {"passage": "S1", "perturbed_text": "b"}],
    ],
)
def test_bad_edits(edits):
    with pytest.raises(EditError):
        apply_edits(PASSAGES, SIGNAL, NOISE, edits)


def test_edited_labels_roundtrip():
    perturbed = ["N", "s0", "n1", "S", "s2"]
    assert edited_labels(PASSAGES, perturbed, SIGNAL, NOISE) == (["S2", "N1"], [])
