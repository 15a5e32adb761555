"""The presets table of RULES.md, which the engine's tests and the API's tests check against."""

from __future__ import annotations

from typing import Any

# Copied column by column from RULES.md, not from the engine.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "portugal": {
        "games_to_win": 4,
        "tie": "carry",
        "bandeira": "tricks",
        "bandeira_wins_rubber": True,
        "revoke": "opponents_two",
        "manilha": "7",
        "queen_over_jack": False,
        "direction": "counterclockwise",
        "melar": False,
    },
    "brasil": {
        "games_to_win": 4,
        "tie": "carry",
        "bandeira": "points",
        "bandeira_wins_rubber": True,
        "revoke": "opponents_two",
        "manilha": "7",
        "queen_over_jack": False,
        "direction": "clockwise",
        "melar": True,
    },
    "acores": {
        "games_to_win": 4,
        "tie": "carry",
        "bandeira": "tricks",
        "bandeira_wins_rubber": True,
        "revoke": "opponents_two",
        "manilha": "10",
        "queen_over_jack": False,
        "direction": "counterclockwise",
        "melar": False,
    },
    "online": {
        "games_to_win": 4,
        "tie": "void",
        "bandeira": "points",
        "bandeira_wins_rubber": True,
        "revoke": "opponents_two",
        "manilha": "7",
        "queen_over_jack": False,
        "direction": "counterclockwise",
        "melar": False,
    },
}
