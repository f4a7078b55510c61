"""The game server: REST for creating and finding games, one websocket per client for play.

The server is authoritative (docs/architecture.md): it keeps every game, sends each seat
what that seat may see and its legal moves, and accepts a move only from the seat whose
decision it is.  Every accepted decision is stored before anyone hears of it, so a
restarted server resumes every game exactly.  docs/protocol.md is the contract.
"""
