# On PYTHONPATH, this folder stands for an environment without the MCP SDK: importing
# `mcp` fails as it does where `pip install 'memhooks[mcp]'` was never run.
raise ModuleNotFoundError("No module named 'mcp'", name="mcp")
