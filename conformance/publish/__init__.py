"""Publishing: the strictness matrix (JSON, Markdown, HTML) and the rules page."""
