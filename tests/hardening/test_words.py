"""A sentence about a guest whose name ends in a full stop gets one, not two (issue 28,
item 9: "Jo A..")."""

from tables.words import sentence


def test_a_name_ending_in_a_full_stop_closes_the_sentence():
    assert sentence("Bea took over seat 3 from Jo A.") == "Bea took over seat 3 from Jo A."
    assert sentence("Ivy passed the gift to Jo A..") == "Ivy passed the gift to Jo A."


def test_a_sentence_gets_exactly_one_closing_mark():
    assert sentence("Bea passed") == "Bea passed."
    assert sentence("Bea passed.") == "Bea passed."
    assert sentence("Unwrap your gifts!") == "Unwrap your gifts!"
    assert sentence("Wait for it...") == "Wait for it..."
