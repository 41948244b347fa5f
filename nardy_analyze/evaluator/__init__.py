"""The evaluator of long nardy and Gul bara: a self-play-trained network (numpy inference), the position id,
and the play of whole games (docs/evaluator.md)."""
