"""Scripts that make the repository's generated files (demo sheets, screenshots)."""
