"""Persistence: identity keys, transcript files, table logs, hand secrets, table nonces and
saved rule sets.

Where the files go: docs/files.md. The table log format: PROTOCOL.md §8.1.
"""

from p2p_dominoes.store._atomic import write_private_replace
from p2p_dominoes.store.bot_seat import (
    BOT_FILE_NAME,
    BOTS_DIR_NAME,
    BotSeat,
    BotSeatError,
    bot_dir,
    bot_seat_key,
    bot_seats,
    keep_bot_seat,
)
from p2p_dominoes.store.identity_file import (
    IDENTITY_FILE_NAME,
    IdentityFileError,
    load_identity_file,
    load_or_create_identity,
    write_identity_file,
)
from p2p_dominoes.store.log_records import (
    LOG_FILE_NAME,
    LOG_MAGIC,
    LogContents,
    LogCorrupted,
    LogHeader,
    PeerAddress,
    TableLogBusy,
    TableLogError,
    log_path,
    parse_log,
    read_log,
    transcript_bytes,
)
from p2p_dominoes.store.paths import (
    data_dir,
    default_data_dir,
    runtime_dir,
    table_dir,
    tables_dir,
)
from p2p_dominoes.store.rule_sets import (
    RULES_DIR_NAME,
    RuleSetError,
    delete_rule_set,
    list_rule_sets,
    load_draft,
    load_rule_set,
    name_problem,
    rules_dir,
    save_rule_set,
    table_rules,
)
from p2p_dominoes.store.secrets import HandSecrets, SecretsFileError, secrets_path
from p2p_dominoes.store.table_list import LotteryStall, TableSummary, list_tables, lottery_stalls
from p2p_dominoes.store.table_log import TableLog
from p2p_dominoes.store.table_nonce import (
    NONCE_FILE_NAME,
    NonceFileError,
    TableNonceFile,
)
from p2p_dominoes.store.transcript_file import (
    MAX_TRANSCRIPT_FILE_SIZE,
    discard_unfinished_writes,
    load_transcript,
    save_transcript,
)

__all__ = [
    "BOTS_DIR_NAME",
    "BOT_FILE_NAME",
    "IDENTITY_FILE_NAME",
    "LOG_FILE_NAME",
    "LOG_MAGIC",
    "MAX_TRANSCRIPT_FILE_SIZE",
    "NONCE_FILE_NAME",
    "RULES_DIR_NAME",
    "BotSeat",
    "BotSeatError",
    "HandSecrets",
    "IdentityFileError",
    "LogContents",
    "LogCorrupted",
    "LogHeader",
    "LotteryStall",
    "NonceFileError",
    "PeerAddress",
    "RuleSetError",
    "SecretsFileError",
    "TableLog",
    "TableLogBusy",
    "TableLogError",
    "TableNonceFile",
    "TableSummary",
    "bot_dir",
    "bot_seat_key",
    "bot_seats",
    "data_dir",
    "default_data_dir",
    "delete_rule_set",
    "discard_unfinished_writes",
    "keep_bot_seat",
    "list_rule_sets",
    "list_tables",
    "load_draft",
    "load_identity_file",
    "load_or_create_identity",
    "load_rule_set",
    "load_transcript",
    "log_path",
    "lottery_stalls",
    "name_problem",
    "parse_log",
    "read_log",
    "rules_dir",
    "runtime_dir",
    "save_rule_set",
    "save_transcript",
    "secrets_path",
    "table_dir",
    "table_rules",
    "tables_dir",
    "transcript_bytes",
    "write_identity_file",
    "write_private_replace",
]
