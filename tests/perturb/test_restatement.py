"""The short form of a restated answer sentence keeps the subject and the predicate that carries the value."""

from __future__ import annotations

import pytest

from refusalbench.perturb.restatement import shortened


@pytest.mark.parametrize(
    "sentence, value, short",
    [
        (
            "The Stone Gardener is a novel by English writer Philippa Hawes, published in 1989 by Marlowe & Finch.",
            "1989",
            "The Stone Gardener was published in 1989 by Marlowe & Finch.",
        ),
        (
            "Lowmarsh is a British rural drama series that first aired in 1999 on Northway Television.",
            "1999",
            "Lowmarsh first aired in 1999 on Northway Television.",
        ),
        (
            "Tessaro Logistica is an Italian freight company based in Verona with 3,200 employees.",
            "3,200",
            "Tessaro Logistica has 3,200 employees.",
        ),
        (
            "The trophy, shaped as a lidded cup topped with a schooner, stands 38 centimetres tall.",
            "38",
            "The trophy stands 38 centimetres tall.",
        ),
        (
            "The hospital has 412 beds and provides emergency, maternity and general surgical services.",
            "412",
            "The hospital has 412 beds.",
        ),
        # a first predicate before the one with the value (the sixty-fourth review's R001)
        (
            "The lake is known for its highly indented shoreline and contains 1,412 islands.",
            "1,412",
            "The lake contains 1,412 islands.",
        ),
        # a passive second predicate keeps its auxiliary
        (
            "The album was recorded in London and released in 1985 by Island.",
            "1985",
            "The album was released in 1985 by Island.",
        ),
        # a clause with a subject of its own after the value (the sixty-fourth review's R036)
        (
            "The compact has 34 member states and four cooperating non-members, and its secretariat is based in "
            "Victoria, Seychelles.",
            "34",
            "The compact has 34 member states and four cooperating non-members.",
        ),
        (
            "The compact has 34 member states, and the secretariat is based in Victoria.",
            "34",
            "The compact has 34 member states.",
        ),
        # an aside after the value, or a second predicate after a list of names
        (
            "It has 210 branches in Mali, Burkina Faso, Niger and Senegal and is one of the largest lenders there.",
            "210",
            "It has 210 branches in Mali, Burkina Faso, Niger and Senegal.",
        ),
        (
            "The company operates 34 factories in Japan, Thailand and Mexico and supplies components to carmakers.",
            "34",
            "The company operates 34 factories in Japan, Thailand and Mexico.",
        ),
        (
            "Whitaker has won three Grammy Awards and has written songs for other artists.",
            "three",
            "Whitaker has won three Grammy Awards.",
        ),
        (
            "The production won eight Tony Awards, including Best Musical and Best Actress in a Musical.",
            "eight",
            "The production won eight Tony Awards.",
        ),
        (
            "Over her career she has won seven medals at the Nordic Swimming Cup, five of them gold.",
            "seven",
            "Over her career she has won seven medals at the Nordic Swimming Cup.",
        ),
        (
            "Its collection of 1,214 works focuses on Brazilian modernism, with a smaller group of ceramics.",
            "1,214",
            "Its collection of 1,214 works focuses on Brazilian modernism.",
        ),
        (
            "The company is still owned by the Brandt family and operates 17 stores in Germany, Austria and "
            "Switzerland.",
            "17",
            "The company operates 17 stores in Germany, Austria and Switzerland.",
        ),
        # the sixty-fifth review's R006: the comma of a written-out date stopped the short form from matching
        (
            "Northern Reach is a Canadian television drama series that premiered on CBC Television on January 8, 2013.",
            "January 8, 2013",
            "Northern Reach premiered on CBC Television on January 8, 2013.",
        ),
        # the sixty-sixth review's R069: the rounded count repeated "selling fish, meat, fruit and vegetables"
        (
            "Its iron and glass hall houses 312 stalls selling fish, meat, fruit and vegetables.",
            "312",
            "Its iron and glass hall houses 312 stalls.",
        ),
        (
            "Its iron and glass hall houses 312 stalls selling fish, meat, fruit and vegetables.",
            "312 stalls",
            "Its iron and glass hall houses 312 stalls.",
        ),
        # the sixty-sixth review's R074: a second predicate after a list ("..., and is credited with bringing ...")
        (
            "He now owns nine restaurants in Santiago, Lima and Buenos Aires, and is credited with bringing cochayuyo "
            "seaweed into Chilean fine dining.",
            "nine",
            "He now owns nine restaurants in Santiago, Lima and Buenos Aires.",
        ),
        # the sixty-sixth review's R089: a participle right after the lead's noun, with no comma before it
        (
            "The Kettering Inheritance is a British television drama serial first shown on 3 January 1979.",
            "3 January 1979",
            "The Kettering Inheritance was first shown on 3 January 1979.",
        ),
        # the short form of the lead, then its first predicate dropped too
        (
            "SS Maren Vale was a British cargo steamship built by a shipyard in Sunderland and launched in 1927.",
            "1927",
            "SS Maren Vale was launched in 1927.",
        ),
        # a first predicate joined by "but", and a second one after the value with a modal (the seventy-fourth
        # review's R011 and R036)
        (
            "The film received mixed reviews but grossed $640 million worldwide.",
            "$640 million",
            "The film grossed $640 million worldwide.",
        ),
        (
            "Its concrete inrun tower stands 48 metres tall and can be seen from most of the valley.",
            "48",
            "Its concrete inrun tower stands 48 metres tall.",
        ),
    ],
)
def test_the_restatement_keeps_what_the_rival_source_disputes(sentence, value, short):
    assert shortened(sentence, value) == short


@pytest.mark.parametrize(
    "sentence, value",
    [
        ("The bridge opened in 1931.", "1931"),
        ("It was released on 3 May 1985 by Warner Records.", "3 May 1985"),
        # a list after the count is not a second predicate
        ("The band has five members and two backing singers.", "five"),
        # the value in the subject's own description: nothing to cut to
        ("The 1998 World Cup was a football tournament held in France.", "1998"),
        # an active second predicate after "was": cutting "was formed in 1990 and" would not read as one
        ("The band was formed in 1990 and released 12 albums.", "12"),
        # a relative clause in the subject is not a first predicate
        ("The building that is known for its towers and has 12 floors.", "12"),
        # a list item after the value is not a clause of its own
        ("The compact has 34 member states, 12 observers, and the secretariat.", "34"),
        # a list of counts is the value's own statement
        ("The team won 5 gold, 3 silver and 4 bronze medals.", "5"),
        # a noun that ends in -ing is not a participle phrase
        ("The pool has 3 swimming lanes.", "3"),
        ("The prison has 12 holding cells.", "12"),
        # a participle after its auxiliary: "Ballymore Road was broadcast on national radio since 1963" would not read
        ("Ballymore Road is an Irish radio soap opera that has been broadcast on national radio since 1963.", "1963"),
    ],
)
def test_a_sentence_of_no_such_form_stays_whole(sentence, value):
    assert shortened(sentence, value) == sentence
