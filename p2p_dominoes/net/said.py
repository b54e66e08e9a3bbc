"""What the peer runtime tells its player during a table, in English or Russian."""

from __future__ import annotations

import errno
import os
import re
from typing import Final

_LINES: Final[dict[str, tuple[str, str]]] = {
    # Seat numbers in these lines count from 1, as players do.
    "seated": ("Seated at seat {seat} of {of}: {names}", "Место {seat} из {of}: {names}"),
    "fingerprint": (
        "  seat {seat} {name}: fingerprint {fingerprint}",
        "  место {seat} {name}: отпечаток {fingerprint}",
    ),
    "not_allowed": ("That move is not allowed: {rule}", "Так ходить нельзя: {rule}"),
    "again": ("Connected again to {name}.", "Снова на связи: {name}."),
    "lost": ("Lost the connection to {name}.", "Пропала связь с {name}."),
    "code": ("Table code: {code}", "Код стола: {code}"),
    "compare": (
        "Compare the table code aloud: every player's screen must show the same words. "
        "If any differs, someone is in the middle: leave the table.",
        "Сверьте код стола вслух: у всех игроков на экране должны быть те же слова. "
        "Если хоть одно отличается, между вами кто-то есть: уйдите из-за стола.",
    ),
    "lottery_stall": (
        "Note for everyone at this table: {name} stopped an earlier table ('{table}') by going "
        "silent during the opener lottery, when only they knew who would open.",
        "Внимание всем за этим столом: {name} остановил(а) прошлый стол ('{table}'), замолчав "
        "во время жеребьёвки первого хода, когда только он(а) знал(а), кто начнёт.",
    ),
    # The lobby (net/hosting.py, joining.py, resume.py): hosting, joining, resuming.
    "refused_request": ("Refused {name} ({fingerprint}).", "Отказано: {name} ({fingerprint})."),
    "removed": ("Removed {name} from seat {seat}.", "{name} убран(а) с места {seat}."),
    "open": (
        "Table '{table}' ({rules}, {players} seats) is open on port {port}.",
        "Стол «{table}» ({rules}, мест: {players}) открыт на порту {port}.",
    ),
    "join_with": (
        "Others can join with: p2p-dominoes join --connect {address}",
        "Другие могут сесть командой: p2p-dominoes join --connect {address}",
    ),
    "your_fingerprint": ("Your fingerprint: {fingerprint}", "Ваш отпечаток: {fingerprint}"),
    "left_before": ("{name} left before the game began.", "{name} ушёл(ушла) до начала игры."),
    "not_advertised": (
        "Not advertised on the local network ({reason}); players can join by address.",
        "Стол не объявлен в локальной сети ({reason}); садиться можно по адресу.",
    ),
    "not_browsed": (
        "Tables on the local network cannot be found here ({reason}). To join one, ask its "
        "host for the address (their screen shows it) and enter it under Join by address on "
        "the page.",
        "Столы в локальной сети здесь не найти ({reason}). Чтобы сесть за стол, спросите его "
        "адрес у хозяина (он виден на его экране) и введите его в «Присоединиться по адресу» "
        "на странице.",
    ),
    "advertised": (
        "Advertised on the local network (mDNS).",
        "Стол объявлен в локальной сети (mDNS).",
    ),
    "took_seat": (
        "{name} ({fingerprint}) took a seat ({seated} of {players}).",
        "{name} ({fingerprint}) садится за стол ({seated} из {players}).",
    ),
    "left_lobby": ("{name} left the lobby.", "{name} ушёл(ушла) из лобби."),
    "stopped_asking": (
        "{name} stopped asking (request {number}).",
        "{name} больше не просит места (просьба {number}).",
    ),
    "unanswered": (
        "Nobody answered {name} (request {number}).",
        "Никто не ответил игроку {name} (просьба {number}).",
    ),
    "listening": (
        "Listening on port {port} for the other players.",
        "Ждём остальных игроков на порту {port}.",
    ),
    "connected_to": (
        "Connected to {address}, fingerprint {fingerprint}:",
        "Есть связь с {address}, отпечаток {fingerprint}:",
    ),
    "compare_host": (
        "compare it with the one the host's screen shows.",
        "сверьте его с тем, что на экране хозяина стола.",
    ),
    "asked": (
        "Asked the host for a seat; waiting for the answer.",
        "Попросили у хозяина место; ждём ответа.",
    ),
    "busy": (
        "The host is busy ({reason}); asking again in {seconds} s.",
        "Хозяин занят ({reason}); спросим снова через {seconds} с.",
    ),
    "seats_of": (
        "Table '{table}' ({rules}): {seated} of {total} seats: {names}",
        "Стол «{table}» ({rules}): занято {seated} из {total} мест: {names}",
    ),
    "whole_match": ("a whole match", "целый матч"),
    "hands": ("{n} hands", "сдач: {n}"),
    "one_hand": ("1 hand", "1 сдача"),
    "resuming": (
        "Resuming '{table}' at seat {seat}: {count} messages replayed{torn}",
        "Возвращаемся за стол «{table}», место {seat}: повторено сообщений: {count}{torn}",
    ),
    "torn": (", {count} torn bytes dropped", ", отброшено оборванных байт: {count}"),
    "bots_back": ("Bringing back our bots: {names}.", "Возвращаем наших ботов: {names}."),
    "stopped_blame": ("The table stopped: {name} — {reason}", "Стол остановлен: {name} — {reason}"),
    "forwarded_by": (" (evidence forwarded by {name})", " (улики переслал(а) {name})"),
    "staller": ("{name} is stalling", "{name} тянет время"),
    "lottery_staller": (
        "{name} stalled the opener lottery",
        "{name} сорвал(а) жеребьёвку первого хода",
    ),
    "final_hash": ("final transcript hash: {hash}", "итоговый хеш записи: {hash}"),
    "dialling": ("Dialling {where} …", "Соединяемся с {where} …"),
    "still_trying": (
        "Still trying {where} ({problem}), {s} of {of} s …",
        "Всё ещё пробуем {where} ({problem}), {s} из {of} с …",
    ),
    "no_record": (
        "cannot write the record {path}: {reason}",
        "не удаётся записать запись партии {path}: {reason}",
    ),
    # Why a dial or a join ended (PeerFailure lines; `code` is " [full]" etc. in English only).
    # The English `refused_*` are the words an honest host sends with its refusal.
    "gave_up": (
        "gave up on {where} after {s} s ({problem}): check the address and port the host's "
        "screen shows, and that you are on the same network",
        "не удалось соединиться с {where} за {s} с ({problem}): проверьте адрес и порт на экране "
        "хозяина и что вы в одной сети",
    ),
    "table_full": (
        "no seat at {where}: the table is full (its game has begun)",
        "нет места за столом {where}: все места заняты (игра уже началась)",
    ),
    "host_refused": (
        "the host at {where} refused (its peer says: “{reason}”)",
        "хозяин {where} отказал (его программа пишет: «{reason}»)",
    ),
    "no_seat": ("no seat{code}: {words}", "нет места{code}: {words}"),
    "refused_full": ("the table is full", "все места заняты"),
    "refused_refused": ("the host refused you a seat", "хозяин отказал вам в месте"),
    "refused_removed": ("the host removed you from the table", "хозяин убрал вас из-за стола"),
    "refused_playing": ("the game has begun", "игра уже началась"),
    "refused_unanswered": ("the host did not answer", "хозяин не ответил"),
    "refused_seated": (
        "this player already holds a seat or has asked for one",
        "этот ключ уже занимает место за этим столом (или уже попросил его)",
    ),
    "refused_seat": (
        "the seat you asked for is not free at this table",
        "место, которое вы просили, за этим столом не свободно",
    ),
    "refused_other": ("the host refused", "хозяин отказал"),
    "swapped": ("Seats {first} and {second} swapped.", "Места {first} и {second} поменяны."),
    "pairs": ("Pairs: {first} against {second}", "Пары: {first} против {second}"),
    "pair": ("{one} & {other}", "{one} и {other}"),
    "empty_seat": ("seat {seat} empty", "место {seat} свободно"),
    "host_says": (
        "{because} ({speaker} says: “{given}”)",
        "{because} ({speaker} пишет: «{given}»)",
    ),
    "peer_of": ("{name}'s peer", "программа игрока {name}"),
    "host_peer": ("the host's peer ({fingerprint})", "программа хозяина ({fingerprint})"),
    "refused_code": (
        "the table needs its join code, and this one is missing or wrong: ask the host for the "
        "code shown beside its table (join --code WORDS)",
        "столу нужен код для входа, а этот не указан или неверен: спросите у хозяина код, "
        "показанный рядом со столом (join --code СЛОВА)",
    ),
    "join_code": (
        "Join code: {code} — a joiner must give it (turn it off on a home network: --no-code).",
        "Код для входа: {code} — без него за стол не сесть (дома его можно выключить: --no-code).",
    ),
    "join_with_code": (
        "Others can join with: p2p-dominoes join --connect {address} --code '{words}'",
        "Другие могут сесть командой: p2p-dominoes join --connect {address} --code '{words}'",
    ),
    "compare_request": (
        'The host\'s screen shows your request as "{name}", fingerprint {fingerprint}: '
        "check that it matches.",
        "На экране хозяина ваша просьба видна как «{name}», отпечаток {fingerprint}: "
        "сверьте, что они совпадают.",
    ),
    "timed_out": ("timed out after {s} s", "нет ответа за {s} с"),
    "refused_problem": ("refused ({reason})", "отказ ({reason})"),
    "several_match": (
        "several tables match {name}: {tables}; pick one by its host's fingerprint: "
        "p2p-dominoes join FINGERPRINT (or its table id; see `p2p-dominoes tables`)",
        "стол {name} не один: {tables}; выберите по отпечатку хозяина: "
        "p2p-dominoes join ОТПЕЧАТОК (или по id стола; см. `p2p-dominoes tables`)",
    ),
    "joining_first": (
        "{count} tables are called {name}; joining the one seen first, hosted by {fingerprint}. "
        "The others came later: {tables}. To pick one: p2p-dominoes join FINGERPRINT",
        "Столов с именем {name}: {count}; садимся за тот, что был виден первым, хозяин "
        "{fingerprint}. Остальные появились позже: {tables}. Выбрать другой: "
        "p2p-dominoes join ОТПЕЧАТОК",
    ),
    "host_closed": (
        "the host closed the connection: {reason}",
        "хозяин закрыл соединение: {reason}",
    ),
    "dropped_unanswered": (
        "it dropped the connection before answering",
        "он оборвал соединение, не ответив",
    ),
    "host_closed_saying": (
        "the host closed the connection ({speaker} says: “{given}”)",
        "хозяин закрыл соединение ({speaker} пишет: «{given}»)",
    ),
}

_CLOSED_RU: Final = (
    (re.compile(r"^peer said bye: “done”$"), "стол закрыт"),
    (re.compile(r"^peer closed the connection without bye$"), "без прощания"),
    (re.compile(r"^peer silent for ([0-9.]+) s$"), r"нет ответа \1 с"),
)
"""Russian for the commonest reasons a connection closed (net/connection.py's words)."""

_OS_ERRORS_RU: Final = {
    errno.ECONNREFUSED: "соединение отклонено",
    errno.ECONNRESET: "соединение сброшено",
    errno.ECONNABORTED: "соединение прервано",
    errno.EHOSTUNREACH: "узел недоступен",
    errno.ENETUNREACH: "сеть недоступна",
    errno.ENETDOWN: "сеть не работает",
    errno.ETIMEDOUT: "время ожидания истекло",
    errno.EADDRNOTAVAIL: "адрес недоступен",
}
"""Russian for the system's words about a failed connection (`os.strerror`, first letter
lowered, as net/connection.py writes them)."""


def pairs_said(names: dict[int, str], lang: str) -> str:
    """Who partners whom at a Kozel table: seats 1+3 against 2+4 (`names` by 0-based seat,
    already cleaned; a seat missing from it is said to be empty)."""

    def name(seat: int) -> str:
        return names.get(seat) or said("empty_seat", lang, seat=seat + 1)

    first, second = (said("pair", lang, one=name(a), other=name(a + 2)) for a in (0, 1))
    return said("pairs", lang, first=first, second=second)


def said(key: str, lang: str, **values: object) -> str:
    """The line `key` in `lang` ("ru", else English)."""
    english, russian = _LINES[key]
    return (russian if lang == "ru" else english).format(**values)


_TIMED_OUT: Final = re.compile(r"timed out after ([0-9.]+) s")


def said_os_errors(text: str, lang: str) -> str:
    """`text` (a dial's problem, as net/connection.py words it) with the system's known English
    words, and its "timed out after N s", in `lang`."""
    if lang != "ru":
        return text
    text = _TIMED_OUT.sub(lambda found: said("timed_out", lang, s=found.group(1)), text)
    for number, russian in _OS_ERRORS_RU.items():
        english = os.strerror(number)
        text = text.replace(english[:1].lower() + english[1:], russian)
    return text


def said_closed(reason: str, lang: str) -> str:
    """Why a connection closed (`ConnectionClosed`'s words) in `lang`, where the words are known."""
    if lang == "ru":
        for english, russian in _CLOSED_RU:
            if english.match(reason):
                return english.sub(russian, reason)
    return reason
