"""Board profiles shipped with riskboard, one TOML file each (`load_profile(name)` reads them)."""
