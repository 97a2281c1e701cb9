"""The toy mode's rules (``toy.toml``) read a second time in plain Python, on the
plain-Python dice streams of ``sim.reference.fight.Stream`` (the kernel's streams)."""

from sim.reference.fight import Stream


def play_game(game_rules: dict, stop_at: int, seed: int, game: int) -> dict:
    """One game: ``{"won", "banked", "rolls"}``."""
    dice = Stream(seed, game, 0)
    banked = rolls = 0
    for _turn in range(game_rules["turns"]):
        pot = 0
        while pot < stop_at:
            face = dice.die(game_rules["sides"])
            rolls += 1
            if face == game_rules["bust_face"]:
                pot = 0
                break
            pot += face
        banked += pot
    return {"won": banked >= game_rules["goal"], "banked": banked, "rolls": rolls}


def run_games(game_rules: dict, stop_at: int, seed: int, games: int, first: int = 0) -> list:
    """Games ``first .. first + games - 1``, one dict each."""
    return [play_game(game_rules, stop_at, seed, g) for g in range(first, first + games)]
