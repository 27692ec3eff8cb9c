from refusalbench.generation.ids import benchmark_id, candidate_id, seed_for


def test_candidate_id_stable_and_sensitive():
    a = candidate_id("q1", "P-Ambiguity", "LOW", "gpt", "llm_choice", "generator_nq@1:abcd")
    assert a == candidate_id("q1", "P-Ambiguity", "LOW", "gpt", "llm_choice", "generator_nq@1:abcd")
    assert len(a) == 16
    assert a != candidate_id("q1", "P-Ambiguity", "LOW", "gpt", "llm_choice", "generator_nq@2:abcd")
    assert candidate_id("a|b", "c", "LOW", "g", "m", "p") != candidate_id("a", "b|c", "LOW", "g", "m", "p")


def test_benchmark_id_and_seed():
    assert benchmark_id("0123456789abcdef", "gpt", "q1", "P-Ambiguity", "LOW") == "RB_gpt_q1_P-Ambiguity_LOW_01234567"
    assert seed_for(1, "x") == seed_for(1, "x") != seed_for(2, "x")
