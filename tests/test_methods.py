"""The Methods page's text: sections with anchors, the formulas, the validity table, the links."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ranklens import methods
from ranklens.compare.analysis import demo_files
from ranklens.plan.analysis import METHOD_NOTE, METHOD_SUMMARY
from ranklens.ppi import verdict_words as ppi_words
from ranklens.ppi import views as ppi_views
from ranklens.ppi.analysis import analyse_ppi

ROOT = Path(__file__).resolve().parents[1]


def test_sections_have_the_anchors_the_pages_link_to() -> None:
    anchors = [part.anchor for part in methods.sections()]
    assert anchors == list(methods.ANCHORS)
    for needed in ("pages", "unit", "bootstrap", "permutation", "bh", "mde", "ppi",
                   "assumptions", "validity", "choices"):
        assert needed in anchors
    assert methods.methods_link("mde") == "[Methods page](/methods#mde)"
    with pytest.raises(ValueError, match="no section 'nowhere'"):
        methods.methods_link("nowhere")


def test_the_formulas_and_choices_are_stated() -> None:
    text = "\n".join(part.body for part in methods.sections())
    for formula in (
        r"\mathrm{MDE} = \bigl(z_{1-\alpha/2} + z_{1-\beta}\bigr)\frac{\sigma}{\sqrt n}",
        r"p = \frac{b + 1}{m + 1}",
        r"q_{(i)} = \min_{j \ge i}",
        r"\lambda^{*} = \frac{c}{\bigl(1 + n/N\bigr)\,\sigma_p^{2}}",
        r"\hat\Delta_\lambda = \lambda\,\frac1N",
    ):
        assert formula in text, formula
    # the worked examples are the library's numbers (checked in tests/stats against it)
    assert "the MDE on 200 queries is 0.0198" in text
    assert "197, 785 and 3,140 queries" in text and "(199, 787 and 3,142 queries" in text
    choices = next(part.body for part in methods.sections() if part.anchor == "choices")
    assert "In the asymptotic method ppi_py divides $c$\n  by $n$" in choices
    assert "$n/(n-1)$ times ppi_py's" in choices
    assert r"**Findings at $q \le \alpha$.**" in choices
    assumptions = next(part.body for part in methods.sections() if part.anchor == "assumptions")
    for assumption in ("Queries are the unit", "Symmetric null", "The gold sample is random"):
        assert assumption in assumptions


def test_the_worked_examples_are_what_the_library_computes() -> None:
    from ranklens.stats import mde, required_queries

    assert f"{mde(sd=0.1, n_queries=200):.4f}" == "0.0198"
    assert [required_queries(d, sd=0.1) for d in (0.02, 0.01, 0.005)] == [197, 785, 3140]
    assert [required_queries(d, sd=0.1, method="t") for d in (0.02, 0.01, 0.005)] == [
        199, 787, 3142]


def test_the_validity_table_comes_from_docs_validity(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "validity.md"
    table.write_text("# Validity\n\n| method | n | coverage |\n|---|---|---|\n"
                     "| percentile bootstrap | 20 | 0.93 |\n")
    monkeypatch.setattr(methods, "VALIDITY_FILE", table)
    section = next(part for part in methods.sections() if part.anchor == "validity")
    assert section.body == ("| method | n | coverage |\n|---|---|---|\n"
                            "| percentile bootstrap | 20 | 0.93 |")
    monkeypatch.setattr(methods, "VALIDITY_FILE", tmp_path / "missing.md")
    section = next(part for part in methods.sections() if part.anchor == "validity")
    assert section.body == methods.VALIDITY_MISSING


def test_every_methods_reference_links_to_the_page() -> None:
    files = demo_files()
    analysis = analyse_ppi(files["run_a"], files["run_b"], files["qrels_proxy"],
                           files["qrels_gold"], "nDCG@10")
    assert analysis.model is not None
    said = [METHOD_SUMMARY, METHOD_NOTE, ppi_words.intervals_note(analysis),
            ppi_views.budget_caption(analysis.model),
            *(card.help for card in ppi_views.ppi_cards(analysis))]
    linked = [text for text in said if "Methods page" in text]
    assert len(linked) == 5
    anchors = set(methods.ANCHORS)
    for text in linked:
        for target in re.findall(r"\]\(/methods#([a-z-]+)\)", text):
            assert target in anchors
        assert re.sub(r"\[Methods page\]\(/methods#[a-z-]+\)", "", text).count(
            "Methods page") == 0
    # no unlinked "methods page" left in the app's words or pages
    for path in [*(ROOT / "ranklens").rglob("*.py"), *(ROOT / "pages").glob("*.py")]:
        source = path.read_text()
        for line in source.splitlines():
            if re.search(r"methods page", line, re.IGNORECASE) and '"' in line:
                assert ("methods_link" in line or "](/methods" in line
                        or line.strip().startswith(("#", '"""', "``")) or "Methods page's" in line
                        or path.name == "methods.py"), (path, line)


def test_the_repository_validity_file_is_shown_one_level_down() -> None:
    if not methods.VALIDITY_FILE.is_file():
        pytest.skip("docs/validity.md is not in this checkout")
    body = next(part.body for part in methods.sections() if part.anchor == "validity")
    assert body != methods.VALIDITY_MISSING
    assert "| n | method |" in body  # its tables
    assert not re.search(r"^## ", body, re.MULTILINE)  # never a heading at the page's level
    assert re.search(r"^### ", body, re.MULTILINE)
