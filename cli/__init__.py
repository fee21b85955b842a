"""The `ulm` command line (cli.main:main)."""

# help options of every command, also when a command is used on its own
HELP = {"help_option_names": ["-h", "--help"]}
