from .fastcli import run

run()
