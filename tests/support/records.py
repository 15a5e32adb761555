"""The hand-made trick records that several test modules play: written once, imported by each."""

# A whole hand made by hand: trump hearts, dealer seat 0, so seat 1 leads the first trick.
# Each trick is written in play order from its leader; the comment gives seat:card.
FULL_RECORD = [
    ["AS", "2S", "7S", "JS"],  # 1:AS 2:2S 3:7S 0:JS   no trump, AS wins        -> 1, 24
    ["KS", "3S", "QS", "4S"],  # 1:KS 2:3S 3:QS 0:4S   KS beats QS              -> 1, 6
    ["5S", "6S", "2H", "AC"],  # 1:5S 2:6S 3:2H 0:AC   the 2 of trumps wins     -> 3, 11
    ["AH", "3H", "4H", "5H"],  # 3:AH 0:3H 1:4H 2:5H   trumps led, AH           -> 3, 11
    ["7H", "6H", "KH", "JH"],  # 3:7H 0:6H 1:KH 2:JH   the manilha beats K      -> 3, 17
    ["2C", "7C", "KC", "QC"],  # 3:2C 0:7C 1:KC 2:QC   7C                       -> 0, 16
    ["3D", "4D", "AD", "2D"],  # 0:3D 1:4D 2:AD 3:2D   AD                       -> 2, 11
    ["7D", "KD", "JD", "QD"],  # 2:7D 3:KD 0:JD 1:QD   7D                       -> 2, 19
    ["5D", "6D", "3C", "JC"],  # 2:5D 3:6D 0:3C 1:JC   off-suit JC cannot win   -> 3, 3
    ["4C", "5C", "6C", "QH"],  # 3:4C 0:5C 1:6C 2:QH   QH trumps                -> 2, 2
]
"""Team 1 (seats 1 and 3) takes 72 in six tricks, team 0 takes 48 in four."""
