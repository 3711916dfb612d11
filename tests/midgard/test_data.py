"""The card data file: what the rulebook prints is kept as printed and labelled so, every supplied
value is labelled too (the gaps are listed on docs/rules/midgard.md), the synthetic part follows
the project's spec, and every malformed edit is rejected with an error naming the record."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from deckzoo.envs.midgard.cards import (
    DATA,
    DATA_FILE,
    LABELLED_FIELDS,
    NUM_CLASSES,
    DataError,
    load_data,
    validate,
)

from .util import RULES_PAGE

RAW = json.loads(DATA_FILE.read_text(encoding="utf-8"))


def test_component_counts_as_printed():
    # "122 Game Cards (88 Troops, 9 Wildcards, 17 Event Cards, 8 Reaction Cards); 40 Challenge
    # Cards; 30 Reward Cards"
    assert DATA.deck_size == 122
    assert sum(DATA.kind_counts[:11]) == 88 and set(DATA.kind_counts[:11]) == {8}  # M3
    assert DATA.kind_counts[11:13] == (6, 3)  # M5: 6 Tyr, 3 Thor
    assert (DATA.num_events, DATA.num_reactions) == (17, 8)
    assert len(DATA.challenges) == 40 and sum(DATA.reward_counts) == 30


def test_class_table_and_might_values_m2_m4():
    assert DATA.class_names == (
        "Hyggelig",
        "Skålde",
        "Kriger",
        "Berserker",
        "Bueskytter",
        "Sjømann",
        "Ränger",
        "Göddar",
        "Krigsjärl",
        "Runecästr",
    )
    might = dict(zip(DATA.kind_names[:13], DATA.might[:13]))
    assert might == {
        "Hyggelig": 0,
        "Skålde": 1,
        "Kriger": 1,
        "Berserker": 1,
        "Bueskytter": 1,
        "Sjømann": 1,
        "Ränger": 1,
        "Göddar": 2,
        "Krigsjärl": 3,
        "Runecästr": 3,
        "Snedig": 1,
        "Tyr": 3,
        "Thor": 6,
    }


def test_worlds_table_as_printed_and_synthetic_rows_m24_m25():
    rows = {w.name: (w.troops, w.benefit.kind, w.benefit.n, w.source) for w in DATA.worlds}
    assert rows["Midgard"] == ((4,), "draw_cards", 1, "rulebook")
    assert rows["Nidavellir"] == ((3, 3), "gain_coins", 2, "rulebook")
    assert rows["Vanaheim"] == ((5,), "take_from_valhalla", 0, "rulebook")
    assert rows["Jotunheim"] == ((3, 4), "take_from_krog", 0, "rulebook")
    assert rows["Alfheim"] == ((6,), "reserve_challenge", 0, "rulebook")
    assert rows["Niflheim"] == ((3, 3, 3), "draw_rewards", 1, "rulebook")
    assert rows["Muspellsheim"] == ((2, 2), "draw_rewards", 1, "rulebook")  # as printed (M24)
    assert rows["Svartalfheim"] == ((4, 5), "gain_coins", 3, "synthetic")  # M25
    assert rows["Asgard"] == ((7,), "draw_rewards_keep_one", 2, "synthetic")  # M25


def _c(name):
    return DATA.challenge_by_name(name)


def _reqs(c):
    return {label: n for label, n in c.requirement_icons()}


def test_challenge_facts_from_the_rulebook_are_kept():
    jotun = _c("Jotun")  # Berserker and Göddar, 10, winter +2, 5 renown, calendar
    assert (
        _reqs(jotun) == {"3": 1, "7": 1} and jotun.difficulty == 10 and jotun.season_bonus == (0, 2)
    )
    assert jotun.renown == 5 and jotun.calendar
    assert _c("Vekksorm of the Seas").difficulty == 10 and _c(
        "Vekksorm of the Seas"
    ).season_bonus == (1, 0)
    surt = _c("Surt, King of Fire Giants")
    assert surt.difficulty == 17 and surt.worlds == {6}
    hel = _c("Hel")  # Bueskytter, Runecästr and Tyr; Niflheim and Muspellsheim
    assert _reqs(hel) == {"4": 1, "9": 1, "Tyr": 1} and hel.worlds == {5, 6}
    draugr = _c("Draugr")
    assert (
        draugr.worlds == {5}
        and draugr.classes[6] == 1
        and [(e.kind, e.n) for e in draugr.lasting] == [("might_per_troop", -1)]
    )
    fenrir = _c("Fenrir")
    assert (
        fenrir.any_world
        and fenrir.discard == 1
        and [e.kind for e in fenrir.instant] == ["all_to_midgard"]
    )
    assert _c("Jormungand").discard == 1
    assert _c("Kraken").worlds == {2, 8}
    assert _reqs(_c("Huldre People")) == {"1": 1, "4": 1}
    assert _reqs(_c("Veksorm from Caves")) == {"6": 1, "9": 1, "10": 1}
    assert _reqs(_c("Maelstrom")) == {"5": 2}
    assert _reqs(_c("Crossing the Ice Lake")) == {"6": 2}
    assert _reqs(_c("Trade")) == {"0": 2, "coins": 1}
    assert _reqs(_c("Crossing the Lava River")) == {"10": 1} and _reqs(
        _c("Exploring the Underground")
    ) == {"10": 1}
    for name in ("Dispute of Runes", "Crossing the Storm"):
        assert [e.kind for e in _c(name).instant] == ["open_another"]
    assert [(e.kind, e.n) for e in _c("Hrodsorm Dragon").lasting] == [("difficulty_others", 1)]
    assert _c("Trollgjaldi").calendar
    for name in ("Bjorkun", "Scots", "Saxons"):
        _c(name)


def test_named_events_and_reactions():
    cards = {a.name: a for a in DATA.action_cards}
    assert cards["Loki's Trick"].is_event and cards["Loki's Trick"].bonus == 5
    assert [e.kind for e in cards["Loki's Trick"].effects] == ["all_discard_keep_one"]
    assert [e.kind for e in cards["Urd's Auspices"].effects] == ["renew_challenges"]
    assert cards["Ivaldi's Forge"].bonus == 3 and cards["Roots of Yggdrasil"].bonus == 7
    odin = cards["Odin's Reprimand"]
    assert not odin.is_event and odin.bonus == 7 and odin.trigger == "card_played"
    assert [e.kind for e in odin.effects] == ["cancel_card"]
    balder = cards["Balder's Assistance"]
    assert balder.trigger == "troop_engaged_for_challenge" and [e.kind for e in balder.effects] == [
        "ignore_requirement"
    ]
    assert Counter(a.bonus for a in DATA.action_cards).keys() <= {3, 5, 7}


def test_synthetic_challenges_follow_the_spec_5_12():
    per_world = Counter(w for c in DATA.challenges for w in c.worlds)
    assert all(per_world[w] >= 3 for w in range(9)), per_world
    assert sum(c.any_world for c in DATA.challenges) >= 4
    assert sum(c.calendar for c in DATA.challenges) >= 16
    assert all(8 <= c.difficulty <= 18 for c in DATA.challenges)
    seasonal = sum(any(c.season_bonus) for c in DATA.challenges)
    assert 10 <= seasonal <= 16  # about a third
    for c in DATA.challenges:  # renown = round(difficulty / 2), halves up (Jotun 10 -> 5)
        assert c.renown == (c.difficulty + 1) // 2, c.name
    synthetic = [c for c in DATA.challenges if c.source == "synthetic"]
    assert len(synthetic) == 18
    # difficulty grows with the number of requirement icons
    by_icons = {}
    for c in DATA.challenges:
        by_icons.setdefault(sum(n for _, n in c.requirement_icons()), []).append(c.difficulty)
    means = [sum(v) / len(v) for _, v in sorted(by_icons.items())]
    assert means == sorted(means)


def test_every_record_names_its_source():
    for section in (
        "classes",
        "wildcards",
        "events",
        "reactions",
        "worlds",
        "rewards",
        "challenges",
    ):
        for rec in RAW[section]:
            assert rec["source"] in ("rulebook", "synthetic")


def _labels(name):
    return next(c for c in RAW["challenges"] if c["name"] == name)["sources"]


def test_data_labels_mark_every_field_of_a_rulebook_record():
    # every field of a record the rulebook names is labelled, absent ones too (their "none")
    for section, fields in LABELLED_FIELDS.items():
        for rec in [RAW["snedig"]] if section == "snedig" else RAW[section]:
            if rec["source"] == "rulebook":
                assert list(rec["sources"]) == list(fields), rec["name"]
            else:
                assert "sources" not in rec, rec["name"]
    rulebook = [c for c in RAW["challenges"] if c["source"] == "rulebook"]
    assert len(rulebook) == 22
    # the rulebook prints no season bonus for 13 of them and no effect for any of the 22 but
    # Fenrir, Draugr, Dispute of Runes, Crossing the Storm and Hrodsorm: each "none" is supplied
    assert sum("season" not in c for c in rulebook) == 13
    assert sum("instant" not in c and "lasting" not in c for c in rulebook) == 17
    for c in rulebook:
        for field in ("season", "instant", "lasting"):
            if field not in c:
                assert c["sources"][field] == "synthetic", (c["name"], field)
    # Hel's worlds come from a production report; Snedig is only one of Exploring the
    # Underground's requirements (and the only one of Crossing the Lava River's shown)
    assert _labels("Hel")["worlds"] == "production report"
    exploring = next(c for c in rulebook if c["name"] == "Exploring the Underground")
    assert exploring["sources"]["requires"] == "partial"
    assert "one of the requirements" in exploring["notes"]["requires"]
    assert _labels("Crossing the Lava River")["requires"] == "partial"
    # what test_challenge_facts_from_the_rulebook_are_kept checks as printed is labelled printed
    printed = {
        "Jotun": "requires difficulty season renown calendar",
        "Vekksorm of the Seas": "difficulty season",
        "Surt, King of Fire Giants": "difficulty",
        "Hel": "requires",
        "Draugr": "worlds lasting",
        "Fenrir": "worlds instant",
        "Kraken": "worlds",
        "Huldre People": "requires",
        "Veksorm from Caves": "requires",
        "Maelstrom": "requires",
        "Crossing the Ice Lake": "requires",
        "Trade": "requires",
        "Dispute of Runes": "instant",
        "Crossing the Storm": "instant",
        "Hrodsorm Dragon": "lasting",
        "Trollgjaldi": "calendar",
    }
    for c in rulebook:
        got = {f for f, label in c["sources"].items() if label == "rulebook"}
        assert got == set(printed.get(c["name"], "").split()), c["name"]


def test_data_gaps_are_listed_on_the_rules_page():
    text = RULES_PAGE.read_text("utf-8")
    gaps = DATA.source_gaps()
    assert any("Nidhogg: synthetic" in g for g in gaps)
    assert any("Hel: production report" in g for g in gaps)
    missing = [g for g in gaps if g not in text]
    assert missing == [], missing


def test_rewards_m44():
    got = {(kind, value): n for (kind, value), n in zip(DATA.rewards, DATA.reward_counts)}
    assert got == {
        ("renown", 1): 6,
        ("renown", 2): 6,
        ("renown", 3): 3,
        ("coins", 1): 6,
        ("coins", 2): 6,
        ("coins", 3): 3,
    }


def _broken(edit):
    raw = copy.deepcopy(RAW)
    edit(raw)
    return raw


BAD = [
    ("missing section", lambda r: r.pop("challenges"), "missing section 'challenges'"),
    ("format", lambda r: r.update(format=1), "unsupported 'format' 1"),
    ("39 challenges", lambda r: r["challenges"].pop(), "must have 40 records"),
    ("class order", lambda r: r["classes"].reverse(), "sequence order"),
    (
        "might negative",
        lambda r: r["classes"][0].update(might=-1),
        "classes[0] ('Hyggelig'): field 'might'",
    ),
    ("troop count", lambda r: r["classes"][3].update(count=7), "88 troops"),
    ("Thor replaces", lambda r: r["wildcards"][1].update(replaces=1), "Thor replaces 2"),
    (
        "unknown world",
        lambda r: r["challenges"][0].update(worlds=["Atlantis"]),
        "unknown world 'Atlantis'",
    ),
    (
        "unknown requirement",
        lambda r: r["challenges"][3]["requires"].update(Tyrr=1),
        "challenges[3] ('Hel').requires: unknown requirement 'Tyrr'",
    ),
    (
        "requirement count",
        lambda r: r["challenges"][0]["requires"].update(Berserker=0),
        "field 'Berserker'",
    ),
    ("bad season", lambda r: r["challenges"][0].update(season={"spring": 1}), "field 'season'"),
    ("calendar type", lambda r: r["challenges"][0].update(calendar="yes"), "field 'calendar'"),
    ("duplicate name", lambda r: r["challenges"][1].update(name="Jotun"), "duplicate name 'Jotun'"),
    ("bonus", lambda r: r["events"][0].update(bonus=4), "field 'bonus' must be one of [3, 5, 7]"),
    (
        "effect kind",
        lambda r: r["events"][0]["effects"].append({"kind": "win_the_game"}),
        "unknown effect kind 'win_the_game'",
    ),
    ("effect param", lambda r: r["events"][2]["effects"][0].pop("n"), "missing field 'n'"),
    ("effect extra", lambda r: r["events"][0]["effects"][0].update(n=3), "takes no field(s) ['n']"),
    ("trigger", lambda r: r["reactions"][0].update(trigger="whenever"), "field 'trigger'"),
    (
        "event trigger",
        lambda r: r["events"][0].update(trigger="card_played"),
        "events have no 'trigger'",
    ),
    ("world order", lambda r: r["worlds"].reverse(), "worlds must be listed"),
    ("world troops", lambda r: r["worlds"][0].update(troops=[]), "field 'troops'"),
    (
        "benefit",
        lambda r: r["worlds"][0]["benefit"].update(kind="teleport"),
        "unknown effect kind 'teleport'",
    ),
    ("source", lambda r: r["challenges"][0].update(source="folklore"), "field 'source'"),
    (
        "synthetic with labels",
        lambda r: r["challenges"][-1].update(sources={"worlds": "rulebook"}),
        "a synthetic record has no 'sources'",
    ),
    (
        "no labels",
        lambda r: r["classes"][0].pop("sources"),
        "classes[0] ('Hyggelig'): a rulebook record must label",
    ),
    (
        "unlabelled field",
        lambda r: r["challenges"][0]["sources"].pop("season"),
        "challenges[0] ('Jotun'): 'sources' must label ['season']",
    ),
    (
        "unknown field",
        lambda r: r["challenges"][0]["sources"].update(colour="rulebook"),
        "'sources' labels ['colour']",
    ),
    (
        "unknown label",
        lambda r: r["challenges"][0]["sources"].update(worlds="folklore"),
        "'sources.worlds' must be one of",
    ),
    (
        "note missing",
        lambda r: r["challenges"][3].pop("notes"),
        "challenges[3] ('Hel'): 'sources.worlds' is 'production report': 'notes.worlds' must say",
    ),
    (
        "note of nothing",
        lambda r: r["events"][0]["notes"].update(colour="red"),
        "'notes' names 'colour'",
    ),
    ("reward count", lambda r: r["rewards"][0].update(count=7), "30 rewards"),
    ("event count", lambda r: r["events"].pop(), "17 events"),
]


@pytest.mark.parametrize("label,edit,message", BAD, ids=[b[0] for b in BAD])
def test_validation_errors_name_the_problem(label, edit, message):
    with pytest.raises(DataError) as err:
        validate(_broken(edit))
    assert message in str(err.value), str(err.value)


def test_invalid_json_file(tmp_path):
    bad = tmp_path / "midgard.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(DataError, match="not valid JSON"):
        load_data(bad)


def test_the_shipped_file_round_trips(tmp_path):
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(RAW, ensure_ascii=False), encoding="utf-8")
    assert load_data(path).challenges == DATA.challenges
    assert NUM_CLASSES == 10
