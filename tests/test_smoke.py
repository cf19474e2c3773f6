from pypdf import PdfReader

from .clirun import pnpgen


def test_swarm_decks_hold_every_card(built):
    results = {r.id: r for r in built["swarm"]}
    assert results["common"].cards == 73
    assert results["optional"].cards == 16
    for r in (results["common"], results["optional"]):
        pages = len(PdfReader(r.path).pages)
        assert pages == r.pages == 2 * r.sheets  # front and back per sheet
        assert r.sheets == -(-r.cards // r.per_sheet)


def test_credits_reach_the_pdf_and_list(built, project):
    import json
    main = next(r for r in built["swamp-monsters"] if r.id == "main")
    assert "reconstructed" in PdfReader(main.path).metadata.subject
    listed = pnpgen("--root", project.root, "list", "--json")
    assert listed.returncode == 0, listed.stderr
    out = listed.stdout
    games = {g["id"]: g for g in json.loads(out)}
    assert games["swamp-monsters"]["decks"][0]["cards"] == 69
    assert "reconstructed" in games["swamp-monsters"]["credits"]
