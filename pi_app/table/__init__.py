"""The table: the one loop that owns the game, its gestures, lights and board tracking.

`loop.TableLoop` is the single writer; `service.LocalTableService` is the door the web uses
(`pi_app.table_api.TableService`); `sim.build_sim` wires the virtual board for `--sim`.
"""
