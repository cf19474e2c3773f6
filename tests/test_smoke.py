from pypdf import PdfReader


def test_swarm_decks_hold_every_card(built):
    results = {r.deck: r for r in built["swarm"]}
    assert results["common"].cards == 73
    assert results["optional"].cards == 16
    for r in results.values():
        pages = len(PdfReader(r.path).pages)
        assert pages == r.pages == 2 * r.sheets  # front and back per sheet
        assert r.sheets == -(-r.cards // r.per_sheet)
