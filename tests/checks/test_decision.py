"""The decision layer: a logistic model over a look's signals, loaded from the judge's folder when fitted there."""
import json

import pytest

from training.train_decision import fit, outcomes, save
from checks.decision import INPUTS, SIGNALS, Decision


def look(set_name, qid, present, label, judge, own=1.0, look_number=1, candidates=1.0):
    signals = {name: 0.0 for name in SIGNALS}
    signals.update({"judge": judge, "own": own, "candidates": candidates, "reserve": float(look_number == 2)})
    return {"set": set_name, "id": qid, "present": present, "look": look_number, "label": label, "named": True,
            "signals": signals}


def recorded():
    """Two sets where a sure judge and a sentence of the subject's own mean an answer is there."""
    rows = []
    for s in ("a", "b"):
        for i in range(20):
            rows.append(look(s, f"{s}{i}", True, 1, 0.6 + 0.02 * i))
            rows.append(look(s, f"{s}{i}", False, 0, 0.1 + 0.02 * i, own=float(i % 2)))
            rows.append(look(s, f"{s}{i}", False, 0, 0.05, own=0.0, look_number=2))
    return rows


def test_fitting_separates_looks_that_hold_an_answer_and_picks_a_threshold_for_every_set():
    card = fit(recorded())
    assert card["signals"] == list(SIGNALS) and card["weights"][INPUTS.index("judge")] > 0
    assert all(f["balanced"] == 1.0 for f in card["fitted_on"].values()) and card["balanced_accuracy"] == 1.0


def test_a_fitted_decision_is_loaded_beside_the_judge_and_decides(tmp_path):
    assert Decision.load(tmp_path) is None  # not fitted: the judge's threshold decides
    save(fit(recorded()), tmp_path)
    decision = Decision.load(tmp_path)
    sure, unsure = recorded()[0]["signals"], recorded()[1]["signals"]
    assert decision.answers(sure) and not decision.answers(unsure)
    assert 0.0 <= decision.probability(unsure) < decision.probability(sure) <= 1.0


def test_a_refit_keeps_the_threshold_across_languages_marked_as_chosen_before(tmp_path):
    first = fit(recorded())
    first["across"] = {"threshold": 0.95, "questions": 10}
    save(first, tmp_path)
    save(fit(recorded()), tmp_path)  # the decision refitted, e.g. for a new judge
    across = json.loads((tmp_path / "decision.json").read_text())["across"]
    assert across["threshold"] == 0.95 and "calibrate-across again" in across["chosen_for"]


@pytest.mark.parametrize("field", ["signals", "inputs"])
def test_a_decision_fitted_on_other_signals_is_refused(tmp_path, field):
    """Other signals, or the same signals read into other inputs (as before search's own scores were read for a
    seif): its weights would meet the wrong inputs."""
    save(fit(recorded()), tmp_path)
    card = json.loads((tmp_path / "decision.json").read_text())
    card[field] = card[field][:-1]
    (tmp_path / "decision.json").write_text(json.dumps(card))
    with pytest.raises(ValueError, match="train-decision"):
        Decision.load(tmp_path)


def test_a_question_is_answered_when_either_look_answers():
    rows = [look("a", "q", True, 1, 0.2), look("a", "q", True, 0, 0.9, look_number=2),
            look("a", "r", False, 0, 0.2), look("a", "r", False, 0, 0.3, look_number=2)]
    assert outcomes(rows, [r["signals"]["judge"] for r in rows], 0.5) == {"a": (1.0, 1.0)}
    assert outcomes(rows, [r["signals"]["judge"] for r in rows], 0.25) == {"a": (1.0, 0.0)}


def test_no_decision_is_fitted_on_nothing():
    with pytest.raises(ValueError, match="record-decisions"):
        fit([])


def test_train_decision_writes_the_decision_and_the_judges_own_threshold(tmp_path, app):
    looks = tmp_path / "looks.json"
    looks.write_text(json.dumps(recorded_rows := recorded()))
    (tmp_path / "judge.json").write_text(json.dumps({"base": "e5", "threshold": 0.5}))
    result = app.test_cli_runner().invoke(args=["train-decision", str(looks), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    card = json.loads(result.output)
    assert Decision.load(tmp_path).threshold == card["threshold"] and card["looks"] == len(recorded_rows)
    judge = json.loads((tmp_path / "judge.json").read_text())
    assert judge["base"] == "e5" and judge["threshold"] == card["judge_alone"]["threshold"]
    assert judge["threshold_source"].startswith("train-decision")


def across_rows():
    """English questions over Hebrew text: the right seif is found, but the judge is unsure of it (0.30 to 0.49),
    and less sure still without it (0.05 to 0.24); Hebrew ones are sure (0.8) or not (0.1) as the decision knows."""
    rows = []
    for i in range(10):
        for split, present, judge, across in (("train-en", True, 0.30 + 0.02 * i, 1.0),
                                              ("train-en", False, 0.05 + 0.02 * i, 1.0),
                                              ("train-he", True, 0.8, 0.0), ("train-he", False, 0.1, 0.0)):
            row = look(split, f"q{i}", present, int(present), judge)
            rows.append({**row, "across": across, "right": int(present), "signals": {**row["signals"], "across": across}})
    return rows


def test_a_question_asked_across_languages_has_a_threshold_of_its_own():
    from training.calibrate_across import choose

    logistic = [0.0] * len(INPUTS)
    logistic[INPUTS.index("judge")] = 1.0
    decision = Decision(tuple(logistic), 0.0, tuple([0.0] * len(INPUTS)), tuple([0.2] * len(INPUTS)), 0.97, {})
    english = across_rows()[0]["signals"]
    assert not decision.answers(english)  # probability sigmoid(1.5) = 0.82 < 0.97
    result = choose(across_rows(), decision)
    assert result["at_decision_threshold"]["train-en"]["answered"] == 0.0  # the one threshold declines them all
    assert result["at_threshold"]["train-en"] == {"answered_right": 1.0, "answered": 1.0, "declined": 1.0,
                                                  "balanced": 1.0}
    assert result["at_threshold"]["train-he"]["balanced"] == result["at_decision_threshold"]["train-he"]["balanced"]
    fitted = Decision(*[getattr(decision, f) for f in ("weights", "bias", "means", "scales", "threshold")],
                      {"across": result})
    assert fitted.answers(english) and not fitted.answers({**english, "across": 0.0})
    assert not fitted.answers(across_rows()[1]["signals"])  # without its seif: still declined
    # answers from a neighbouring seif are no answers: no threshold then answers English questions
    wrong = [{**r, "right": 0} for r in across_rows()]
    chosen = choose(wrong, decision)
    assert chosen["at_threshold"]["train-en"]["answered"] == 0.0 and chosen["threshold"] > 0.9


def test_the_across_threshold_is_never_chosen_on_a_test_split(tmp_path):
    from training.calibrate_across import record

    with pytest.raises(ValueError, match="measurement only"):
        record(None, tmp_path, "test-en", 10)


def test_each_look_is_labelled_by_what_it_holds_and_whether_its_best_sentence_is_gold(monkeypatch):
    from types import SimpleNamespace

    from training import train_decision

    def hit(ref):
        return SimpleNamespace(chunk=SimpleNamespace(doc_id="sa", ref=ref, text="", heading="", passage_text=""))

    def looks(pipeline, question, leave_out):  # the seif 318:12 is passage [2]; the best sentence is passage [rank]
        shown = [hit(r) for r in ("OC 318:13", "OC 318:12") if r not in leave_out]
        return [(shown, SimpleNamespace(signals={"rank": 1, "across": 1.0, "judge": 0.4}))]

    monkeypatch.setattr(train_decision, "looks", looks)
    query = {"id": "q1", "text": "may I heat water on Shabbat?"}
    present, absent = train_decision.question_rows(None, "train-en", query, frozenset({"OC 318:12"}), (True, False))
    assert (present["label"], present["right"], present["across"]) == (1, 0, 1.0)  # held, but answered from 318:13
    assert (absent["label"], absent["right"], absent["present"]) == (0, 0, False)
    assert present["signals"]["judge"] == 0.4 and set(present["signals"]) == set(SIGNALS)


@pytest.mark.parametrize("bare", [False, True])
def test_calibrate_across_keeps_the_hebrew_lay_looks_for_train_decision(tmp_path, app, monkeypatch, bare):
    """--looks writes the Hebrew questions' looks (set "lay-he") in train-decision's format; the English ones,
    asked across languages, stay the across threshold's. --bare searches the book without the questions written
    beside its seifim, as a user's own import is, and names its looks "lay-he-bare"."""
    from types import SimpleNamespace

    from measuring import libraries
    from search.embedding import Embedder
    from training import calibrate_across

    decision = Decision(tuple([1.0] + [0.0] * (len(INPUTS) - 1)), 0.0, tuple([0.0] * len(INPUTS)),
                        tuple([0.2] * len(INPUTS)), 0.97, {})
    judge = SimpleNamespace(decision=decision)
    pipeline = SimpleNamespace(generator=SimpleNamespace(writers={"offline": SimpleNamespace(judge=judge)}))
    monkeypatch.setattr(Embedder, "load", staticmethod(lambda *a, **k: SimpleNamespace(name="e5")))
    searched = []
    monkeypatch.setattr(libraries, "ingested_library",
                        lambda path, embedder, cache, questions: searched.append(questions))
    monkeypatch.setattr(libraries, "eval_pipeline", lambda *a, **k: pipeline)
    monkeypatch.setattr(calibrate_across, "record",
                        lambda pipeline, lay, split, limit, seed: [r for r in across_rows() if r["set"] == split])
    book = tmp_path / "sa.jsonl"
    book.write_text("{}\n")
    kept = tmp_path / "lay-he.json"
    result = app.test_cli_runner().invoke(args=["calibrate-across", "--lay", str(tmp_path), "--book", str(book),
                                                "--looks", str(kept)] + (["--bare"] if bare else []))
    assert result.exit_code == 0, result.output
    assert (searched[0] is None) == bare
    rows = json.loads(kept.read_text())
    name = "lay-he-bare" if bare else "lay-he"
    assert len(rows) == 20 and {r["set"] for r in rows} == {name} and not any(r["across"] for r in rows)
    assert fit(rows + recorded())  # train-decision reads them beside the other sets' looks


def test_a_look_over_seifim_is_weighed_by_the_signals_that_tell_there():
    """Over leads the judge tells answers apart; over seifim (ruling) it rates every look alike and the margin to the
    next candidate tells: each signal read again for a ruling lets one decision do both, search's scores among them
    (the passages' own, on one scale with or without questions written beside the seifim: Hit.own_score)."""
    rows = []
    for i in range(20):
        rows.append(look("leads", f"l{i}", True, 1, 0.6 + 0.02 * i))
        rows.append(look("leads", f"l{i}", False, 0, 0.1 + 0.02 * i))
        for present in (True, False):
            row = look("lay-he", f"s{i}", present, int(present), 0.85 + 0.005 * (i % 3))
            row["signals"].update(ruling=1.0, margin=(0.3 if present else 0.05) + 0.005 * i, top_hybrid=2.0 + 0.05 * i)
            rows.append(row)
    card = fit(rows)
    assert card["inputs"] == list(INPUTS) and len(card["weights"]) == len(INPUTS) > len(SIGNALS)
    assert "top_hybrid_ruling" in INPUTS and card["weights"][INPUTS.index("margin_ruling")] > 0
    assert card["fitted_on"]["lay-he"]["balanced"] == 1.0 and card["fitted_on"]["leads"]["balanced"] == 1.0
    assert set(card["judge_alone"]["fitted_on"]) == {"leads"}  # the judge's own threshold: not over seifim
    decision = Decision(*[tuple(card[k]) if isinstance(card[k], list) else card[k]
                          for k in ("weights", "bias", "means", "scales", "threshold")], card)
    seif = rows[2]["signals"]
    assert decision.probability(seif) != decision.probability({**seif, "top_hybrid": 0.7, "hybrid": 0.6})
