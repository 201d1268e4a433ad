"""The table's configuration, validated once at start.

Layers, each over the one before: `config/default.toml` (the table as shipped; the models'
defaults are the same values), then a site file (`--config FILE` or `PAIGOW_CONFIG`), then
the environment (`PAIGOW_<SECTION>__<KEY>`, e.g. `PAIGOW_COMMISSION__RATE=4%`), then any
overrides a caller adds (a round description's `config`). Anything wrong is refused with the
file (or variable), the key and why, as a `ConfigError` - never a traceback.

Money is written as dollars in quotes (`"5.00"`), rates as percentages (`"5%"`).
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from app.core.banker import BankingRules, DealerWager
from app.core.bonus import (
    BonusCardError,
    BonusError,
    BonusRules,
    EnvyCard,
    PayCard,
    PayOrder,
    envy_card,
    load_envy_card,
    load_pay_card,
    pay_card,
)
from app.core.bonus.table_bonus import TableBonus
from app.core.hands import HandRules, JokerRule, WheelRule
from app.core.house_way import (
    CardFileError,
    HouseWay,
    card_names,
    house_way,
    joker_misfit,
    use_site_cards,
)
from app.core.progressive import ProgressiveCard, ProgressiveCardError, progressive_card
from app.core.progressive import use_site_progressives as _use_site_progressives
from app.core.round import (
    MAX_DRAGONS_PER_ROUND,
    AskedHouseWay,
    DragonOffer,
    DragonRules,
    DragonSetting,
    DragonWager,
    FoulPenalty,
    RoundRules,
    WagerLimits,
)
from app.core.settlement import (
    CommissionPolicy,
    MoneyError,
    Rounding,
    money,
    parse_money,
    parse_rate,
    verify_rate,
    verify_step,
)
from app.core.table import (
    SEATS,
    TABLE_NAME_MAX,
    ActionSource,
    DealMode,
    Direction,
    Table,
    TableError,
)

if TYPE_CHECKING:
    from app.core.gaming_day import GamingDay
    from drivers.printer.config import PrinterConfig
    from drivers.shoe.transport import ShoeConfig

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "config" / "default.toml"
ENV_FILE = "PAIGOW_CONFIG"
ENV_PREFIX = "PAIGOW_"
BUILT_IN = "built-in defaults"


@dataclass(frozen=True, slots=True)
class Problem:
    file: str
    key: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.why}" if self.key else f"{self.file}: {self.why}"


class ConfigError(Exception):
    """A table configuration refused at start: each problem names the file, the key, why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def key(self) -> str:
        return self.problems[0].key

    @property
    def why(self) -> str:
        return self.problems[0].why


def _money(value: object) -> int:
    try:
        cents = parse_money(value)
    except MoneyError as e:
        raise ValueError(str(e)) from None
    if cents < 0:
        raise ValueError(f"{value!r} is below zero")
    return cents


def _rate(value: object) -> int:
    try:
        return parse_rate(value)
    except MoneyError as e:
        raise ValueError(str(e)) from None


def _card(value: object) -> HouseWay:
    """The rule card a name stands for, found once, here, as the config loads."""
    if isinstance(value, HouseWay):
        return value
    try:
        return house_way(str(value))
    except KeyError:
        raise ValueError(f"there is no House Way called {value!r}: the rule cards are "
                         + ", ".join(card_names())) from None
    except CardFileError as e:
        raise ValueError(f"the House Way card {value!r} cannot be used: {e}") from None


def _as_the_core_takes_it(build: Callable[[], object]) -> None:
    """Build the core's value: the config refuses what the core refuses, in its words."""
    try:
        build()
    except (TableError, MoneyError) as e:  # the core's errors (RoundError is a TableError)
        raise ValueError(str(e)) from None


Money = Annotated[int, BeforeValidator(_money)]
Rate = Annotated[int, BeforeValidator(_rate)]
# A House Way is written as its card's name and held as the card itself (the snapshot a
# round keeps, and any dump, writes the name back).
Card = Annotated[HouseWay, BeforeValidator(_card), PlainSerializer(lambda c: c.name,
                                                                      return_type=str)]

# The core's defaults are the config's defaults: one set, written once, in the core.
CORE = RoundRules()

_STEP = re.compile(r"^\s*(?:(\d+)\s*/\s*(\d+)\s+)?chip\s*$")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TableSection(_Section):
    name: str = Field(default=CORE.table.name, min_length=1, max_length=TABLE_NAME_MAX)
    seats: int = CORE.table.seats
    direction: Direction = CORE.table.direction
    action: ActionSource = CORE.table.action_source
    deal: DealMode = CORE.table.deal_mode
    no_play: bool = CORE.table.no_play

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        _as_the_core_takes_it(lambda: Table(name=v))
        return v

    @field_validator("seats")
    @classmethod
    def _six_seats(cls, v: int) -> int:
        if v != SEATS:
            raise ValueError(f"Pai Gow Poker deals seven hands, to the bank and {SEATS} seats, "
                             f"so seats is {SEATS}, not {v}")
        return v


class WagersSection(_Section):
    minimum: Money = CORE.limits.minimum  # seed 002: "$5 minimum bet."
    maximum: Money = CORE.limits.maximum  # seed 002: "$300 maximum bet."

    @field_validator("minimum")
    @classmethod
    def _above_zero(cls, v: int) -> int:
        _as_the_core_takes_it(lambda: WagerLimits(v, v))
        return v

    @field_validator("maximum")
    @classmethod
    def _range(cls, v: int, info: ValidationInfo) -> int:
        low = info.data.get("minimum")
        if low is not None:
            _as_the_core_takes_it(lambda: WagerLimits(low, v))
        return v


class CommissionSection(_Section):
    rate: Rate = CORE.commission.rate_bp
    lowest_chip: Money = 100  # the core's step of 25 cents is a quarter of it
    step: str = "1/4 chip"
    rounding: Rounding = CORE.commission.rounding

    @field_validator("rate")
    @classmethod
    def _sane_rate(cls, v: int) -> int:
        _as_the_core_takes_it(lambda: verify_rate(v))
        return v

    @field_validator("lowest_chip")
    @classmethod
    def _chip_above_zero(cls, v: int) -> int:
        if v <= 0:
            raise ValueError("the lowest chip must be above $0.00")
        return v

    @field_validator("step")
    @classmethod
    def _step_text(cls, v: str, info: ValidationInfo) -> str:
        m = _STEP.match(v)
        if m is None:
            try:
                cents = parse_money(v)
            except MoneyError:
                raise ValueError(f"{v!r} is not a step: write an amount like \"0.25\" or a "
                                 f"part of the lowest chip like \"1/4 chip\"") from None
            _as_the_core_takes_it(lambda: verify_step(cents))
        elif m.group(1):
            num, den = int(m.group(1)), int(m.group(2))
            chip = info.data.get("lowest_chip")
            if den == 0 or num == 0:
                raise ValueError(f"{v!r} is not a part of a chip")
            if chip is not None and (chip * num) % den:
                raise ValueError(f"{v} of a {money(chip)} chip is not a whole number of "
                                 f"cents: choose another step")
        return v

    @property
    def step_cents(self) -> int:
        m = _STEP.match(self.step)
        if m is None:
            return parse_money(self.step)
        if m.group(1) is None:
            return self.lowest_chip
        return self.lowest_chip * int(m.group(1)) // int(m.group(2))


class RulesSection(_Section):
    # The card itself once loaded; an unknown name is refused listing the cards there are.
    house_way: Card = Field(default=CORE.house_way.name, validate_default=True)
    joker: JokerRule = CORE.hands.joker
    wheel: WheelRule = CORE.hands.wheel
    foul_penalty: FoulPenalty = CORE.foul_penalty
    asked_house_way: AskedHouseWay = CORE.asked_house_way

    @model_validator(mode="before")
    @classmethod
    def _the_wild_jokers_card(cls, data: object) -> object:
        # A table whose joker is fully wild plays the card written for it unless it names
        # another: the other cards read the joker as an ace (seed 004, issue 12).
        if isinstance(data, Mapping) and data.get("joker") == "fully-wild" \
                and "house_way" not in data:
            return {**data, "house_way": "fully-wild"}
        return data

    @model_validator(mode="after")
    def _card_fits_the_joker(self) -> RulesSection:
        misfit = joker_misfit(self.house_way, self.joker)
        if misfit is None:
            return self
        if self.joker == "fully-wild":
            raise ValueError(f"{misfit}: name one as house_way (or leave house_way out), "
                             f'or set joker = "bug"')
        raise ValueError(f'{misfit}: set joker = "fully-wild", or choose another house_way '
                         f"for a bug")


class DragonSection(_Section):
    enabled: bool = CORE.dragon.enabled
    wager: DragonWager = CORE.dragon.wager
    setting: DragonSetting = CORE.dragon.setting
    offer: DragonOffer = CORE.dragon.offer
    per_round: int = Field(default=CORE.dragon.per_round, ge=1, le=MAX_DRAGONS_PER_ROUND)
    max_per_player: int = Field(default=CORE.dragon.max_per_player, ge=1,
                                le=MAX_DRAGONS_PER_ROUND)

    @field_validator("max_per_player")
    @classmethod
    def _within_the_round(cls, v: int, info: ValidationInfo) -> int:
        most = info.data.get("per_round")
        if most is not None and v > most:
            raise ValueError(f"a player may take at most the {most} dragon hands a round "
                             f"(per_round), not {v}")
        return v


class PlayerBankingSection(_Section):
    enabled: bool = CORE.banking.enabled
    consecutive: bool = CORE.banking.consecutive
    dealer_wager: DealerWager = CORE.banking.dealer_wager
    co_banking: bool = CORE.banking.co_banking


def _named_or_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text


def _pay_card(text: str) -> PayCard:
    try:
        return load_pay_card(Path(text)) if _named_or_path(text) else pay_card(text)
    except BonusCardError as e:
        raise ValueError("; ".join(e.problems)) from None


def _envy_card(text: str) -> EnvyCard | None:
    if not text.strip():
        return None
    try:
        return load_envy_card(Path(text)) if _named_or_path(text) else envy_card(text)
    except BonusCardError as e:
        raise ValueError("; ".join(e.problems)) from None


class BonusSection(_Section):
    """The bonus bet on the player's seven cards (issue 26, docs/bonus.md): its pay and envy
    cards (a shipped card's name or a card file's path), the bonus wager's own limits and the
    house's settings. Checked as the core checks it when it loads."""

    enabled: bool = True
    pay_table: str = "fortune-8000"
    envy_table: str = "envy-5000"
    minimum: Money = 100
    maximum: Money = 10_000
    requires_wager: bool = True
    fouled_collects: bool = True
    dragon_bonus: bool = False
    order: PayOrder = PayOrder.BONUSES_THEN_ENVY
    approval_at: Money = 100_000  # a payout this large waits for a supervisor

    @field_validator("pay_table")
    @classmethod
    def _a_pay_card(cls, v: str) -> str:
        _pay_card(v)
        return v

    @field_validator("envy_table")
    @classmethod
    def _an_envy_card(cls, v: str) -> str:
        _envy_card(v)
        return v

    @model_validator(mode="after")
    def _the_core_takes_it(self) -> BonusSection:
        try:
            self.table_bonus()
        except BonusError as e:
            raise ValueError(str(e)) from None
        return self

    def table_bonus(self) -> TableBonus | None:
        """The core's bonus for this table, or None when it offers none."""
        if not self.enabled:
            return None
        return TableBonus(_pay_card(self.pay_table), _envy_card(self.envy_table),
                          self.minimum, self.maximum, self.requires_wager,
                          BonusRules(self.fouled_collects, self.dragon_bonus, self.order,
                                     self.approval_at))


class ProgressiveSection(_Section):
    """The linked progressive this table is on (issue 27, docs/progressive.md): its card by
    name ("": none), found among the shipped cards and the casino's own folder."""

    card: str = ""
    cards_folder: str = ""

    @model_validator(mode="after")
    def _a_card_there_is(self) -> ProgressiveSection:
        self.progressive_card()
        return self

    def folders(self) -> tuple[Path, ...]:
        return (Path(self.cards_folder),) if self.cards_folder.strip() else ()

    def progressive_card(self) -> ProgressiveCard | None:
        """The card named (None: no progressive at this table), checked as the core checks
        it when it loads."""
        if not self.card.strip():
            return None
        folder = self.cards_folder.strip()
        if folder and not Path(folder).is_dir():
            raise ValueError(f"cards_folder {folder!r} is no folder on this machine: write "
                             f"the folder that holds the casino's own progressive cards, or "
                             f"leave it empty")
        try:
            return progressive_card(self.card.strip(), self.folders())
        except ProgressiveCardError as e:
            raise ValueError("; ".join(e.problems)) from None


class ShoeSection(_Section):
    """The card-reading shoe (README.md, "The shoe protocol"); each key checked as the driver's
    `ShoeConfig` checks it. An empty port: no shoe, the dealer enters the cards."""

    port: str = ""
    baud: int = 9600
    read_timeout: float = 0.05
    write_timeout: float = 0.5
    heartbeat_timeout: float = 3.0
    reconnect_min: float = 0.2
    reconnect_max: float = 2.0
    resend_delay: float = 0.1
    resend_timeout: float = 0.5
    resend_tries: int = 3
    checksum: Literal["crc16", "xor"] = "crc16"  # "xor": an older shoe's 2-digit checks

    @field_validator("*")
    @classmethod
    def _as_the_shoe_takes_it(cls, v: object, info: ValidationInfo) -> object:
        try:
            from drivers.shoe.transport import ShoeConfig, ShoeConfigError
        except ImportError:  # pyserial missing: the shoe cannot run, the rest can
            return v
        key = info.field_name or ""
        if key == "port" and not str(v).strip():
            return v  # no shoe
        mine = {"port": "-", key: v}
        if key == "reconnect_min":
            mine["reconnect_max"] = v  # the two are compared at reconnect_max
        try:
            ShoeConfig.from_mapping(mine)
        except ShoeConfigError as e:
            raise ValueError(str(e).removeprefix(f"shoe.{key}").lstrip(": ")) from None
        low = info.data.get("reconnect_min")
        if key == "reconnect_max" and low is not None and v < low:
            raise ValueError(f"{v} is below reconnect_min ({low}): the pause between tries "
                             f"grows from reconnect_min up to reconnect_max")
        return v


class PrinterSection(_Section):
    """The settlement slip printer (docs/printer.md); each key checked as the driver's
    `PrinterConfig` checks it, the device's key against the printer's kind."""

    kind: Literal["none", "file", "serial", "network", "pdf"] = "none"
    path: str = "/dev/usb/lp0"
    port: str = ""
    baud: int = 9600
    host: str = ""
    tcp_port: int = 9100
    timeout: float = 5.0
    columns: int = 42
    profile: str = "default"
    check_status: bool = True
    queue_dir: str = ""

    @field_validator("*")
    @classmethod
    def _as_the_printer_takes_it(cls, v: object, info: ValidationInfo) -> object:
        from drivers.printer.config import PrinterConfig

        why = PrinterConfig.check(info.field_name or "", v, info.data.get("kind", "none"))
        if why is not None:
            raise ValueError(why)
        return v


_DATABASE_URL = re.compile(r"^(sqlite|postgresql|postgres)(\+\w+)?://")


class LedgerSection(_Section):
    database_url: str = ""

    @field_validator("database_url")
    @classmethod
    def _url(cls, v: str) -> str:
        if v and not _DATABASE_URL.match(v):
            raise ValueError("write a database URL like \"postgresql://paigow@db/paigow\" "
                             "or \"sqlite:///path/ledger.sqlite\", or leave it empty for "
                             "the station's own file")
        return v


DEFAULT_PIN = "0000"  # as shipped: a real station changes it ([supervisor] pin)
_PIN = re.compile(r"^[0-9]{4,12}$")


def _pin_text(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        raise ValueError(f"write the PIN in quotes (pin = \"{value}\"), so that leading "
                         f"zeros are kept")
    return value


class StationSection(_Section):
    """This station's name in the ledger, and who deals: the shift opened at start."""

    name: str = Field(default="", max_length=60)
    dealer: str = Field(default="", max_length=40)

    @field_validator("name", "dealer")
    @classmethod
    def _strip(cls, v: str) -> str:
        return v.strip()


class SupervisorSection(_Section):
    """The pit supervisor's PIN: voiding a round and correcting a settlement ask for it."""

    pin: Annotated[str, BeforeValidator(_pin_text)] = DEFAULT_PIN

    @field_validator("pin")
    @classmethod
    def _digits(cls, v: str) -> str:
        if not _PIN.match(v):
            raise ValueError("the supervisor PIN is 4 to 12 digits, in quotes "
                             "(e.g. \"730215\")")
        return v

    @property
    def default_pin(self) -> bool:
        """The PIN is still the one shipped in config/default.toml."""
        return self.pin == DEFAULT_PIN


class FilesSection(_Section):
    """How long the station's own copies stay where they are (drivers/archive.py): a
    session in the journal is closed and a new one begun at the next round once it passes
    `session_file_mb`; sessions and slip PDFs last changed more than
    `archive_after_days` ago are packed into a monthly ZIP in their folder's `archive/`
    at the station's start (0: never)."""

    session_file_mb: int = Field(default=20, ge=1, le=10_000)
    archive_after_days: int = Field(default=30, ge=0, le=3_650)


class FloorSection(_Section):
    """The pit floor's gaming day (app/core/gaming_day.py): when it starts and where its
    shifts change, in local time (`time_zone`, or the machine's own when empty). The shift
    report counts by it."""

    gaming_day_starts: str = "06:00"
    shift_changes: list[str] = Field(default_factory=lambda: ["14:00", "22:00"],
                                     max_length=11)
    time_zone: str = ""

    @model_validator(mode="after")
    def _a_gaming_day(self) -> FloorSection:
        from app.core.gaming_day import GamingDay

        GamingDay.of(self.gaming_day_starts, self.shift_changes, self.time_zone)
        return self

    def gaming_day(self) -> GamingDay:
        """The floor's GamingDay (app.core.gaming_day), as checked at load."""
        from app.core.gaming_day import GamingDay

        return GamingDay.of(self.gaming_day_starts, self.shift_changes, self.time_zone)


class TableConfig(BaseSettings):
    """The whole table configuration, as config/default.toml lays it out. Built in code, it
    holds what it is given; `load_config` adds the files and the environment."""

    # A variable's value is the key's text, never JSON: a whole section in one variable is
    # refused as a section would be in a file.
    model_config = SettingsConfigDict(extra="forbid", frozen=True, env_prefix=ENV_PREFIX,
                                      env_nested_delimiter="__", enable_decoding=False)

    table: TableSection = TableSection()
    wagers: WagersSection = WagersSection()
    commission: CommissionSection = CommissionSection()
    rules: RulesSection = RulesSection()
    dragon: DragonSection = DragonSection()
    player_banking: PlayerBankingSection = PlayerBankingSection()
    bonus: BonusSection = BonusSection()
    progressive: ProgressiveSection = ProgressiveSection()
    shoe: ShoeSection = ShoeSection()
    printer: PrinterSection = PrinterSection()
    ledger: LedgerSection = LedgerSection()
    station: StationSection = StationSection()
    supervisor: SupervisorSection = SupervisorSection()
    files: FilesSection = FilesSection()
    floor: FloorSection = FloorSection()

    @classmethod
    def settings_customise_sources(
            cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)

    def shoe_config(self) -> ShoeConfig | None:
        """The shoe driver's settings, or None when no shoe is set up (cards by hand)."""
        from drivers.shoe.transport import ShoeConfig

        if not self.shoe.port.strip():
            return None
        return ShoeConfig.from_mapping(self.shoe.model_dump())

    @model_validator(mode="after")
    def _the_progressive_links_this_table(self) -> TableConfig:
        card = self.progressive.progressive_card()
        if card is not None and not card.links(self.table.name):
            raise ValueError(
                f"[progressive] card = {card.name!r} links the tables "
                f"{', '.join(card.tables)}, not this table {self.table.name!r}: add "
                f"{self.table.name!r} to the card's tables (every linked table must have the "
                f"same card), or set card = \"\" here for no progressive at this table")
        return self

    def printer_config(self) -> PrinterConfig:
        """The slip printer driver's settings."""
        from drivers.printer.config import PrinterConfig

        return PrinterConfig.from_mapping(self.printer.model_dump())

    def round_rules(self) -> RoundRules:
        """The core's rules for a round at this table: the one place they are built from the
        settings (every value was checked as the core checks it, as it loaded)."""
        t, c, r, d, b = self.table, self.commission, self.rules, self.dragon, \
            self.player_banking
        return RoundRules(
            table=Table(t.name, t.seats, t.direction, t.deal, t.action, t.no_play),
            hands=HandRules(joker=r.joker, wheel=r.wheel),
            house_way=r.house_way,
            foul_penalty=r.foul_penalty,
            asked_house_way=r.asked_house_way,
            limits=WagerLimits(self.wagers.minimum, self.wagers.maximum),
            commission=CommissionPolicy(c.rate, c.step_cents, c.rounding),
            dragon=DragonRules(d.enabled, d.wager, d.setting, d.offer, d.per_round,
                               d.max_per_player),
            banking=BankingRules(b.enabled, b.consecutive, b.dealer_wager, b.co_banking),
            bonus=self.bonus.table_bonus(),
            progressive=self.progressive.progressive_card(),
        )

    def snapshot(self) -> dict[str, object]:
        """The config as a round keeps it beside its rules: the table's settings, less where
        the ledger is (and its password) and any secret (the supervisor's PIN) - no secret
        is ever written to the ledger's rows."""
        data = self.model_dump(mode="json", exclude=set(NOT_IN_SNAPSHOT))
        return data


# Sections a round's config snapshot leaves out: where the ledger is, secrets, and the
# station's own housekeeping (no rule of the round).
NOT_IN_SNAPSHOT = ("ledger", "supervisor", "files", "floor")


SECTIONS = tuple(TableConfig.model_fields)


# --- loading -------------------------------------------------------------------------------

# A table's config is a few kilobytes; reading stops past this, so `--config /dev/zero` or
# a wrong file ends with a sentence instead of filling the memory.
MAX_CONFIG = 1_000_000


def _read_toml(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_CONFIG + 1)
        if len(raw) > MAX_CONFIG:
            raise ConfigError([Problem(str(path), "", f"is over {MAX_CONFIG:,} bytes: not a "
                                       f"table's config; check the file name")])
        return tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError([Problem(str(path), "", "no such file")]) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError([Problem(str(path), "", f"not valid TOML: {e}")]) from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursing
        raise ConfigError([Problem(str(path), "", "its brackets nest deeper than Python can "
                                   "read (no table's config nests more than a few deep): "
                                   "give the table's TOML configuration file")]) from None
    except UnicodeDecodeError:  # tomllib decodes before it parses: a binary file ends here
        raise ConfigError([Problem(str(path), "", "is not a text file (not UTF-8): give "
                                   "the table's TOML configuration file")]) from None
    except OSError as e:
        raise ConfigError([Problem(str(path), "", f"cannot be read: {e.strerror}")]) from None


class _TomlFile(TomlConfigSettingsSource):
    """One TOML file, read through `_read_toml`: the library skips a file that is not there
    (or is no regular file, as /dev/zero), where a named config file must be refused with
    a sentence."""

    def __init__(self, path: Path, *, leave_out: tuple[str, str] | None = None) -> None:
        self.path = path
        self.leave_out = leave_out
        super().__init__(TableConfig, toml_file=path)

    def _read_files(self, files: object, deep_merge: bool = False) -> dict[str, object]:
        data = _read_toml(self.path)
        if self.leave_out is not None:
            section = data.get(self.leave_out[0])
            if isinstance(section, dict):
                # A [rules] that is not a table is left for the model to refuse, naming its
                # file.
                section.pop(self.leave_out[1], None)
        return data


class _Environment(EnvSettingsSource):
    """`PAIGOW_<SECTION>__<KEY>` from a given environment (the process's, or a test's)."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self.environ = environ
        super().__init__(TableConfig)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Only PAIGOW_<SECTION>__<KEY>: other PAIGOW_ variables (PAIGOW_CONFIG,
        # PAIGOW_CACHE_DIR, ...) are not the table's settings.
        return {name.lower(): value for name, value in self.environ.items() if "__" in name}


def _no_such_sections(env: Mapping[str, str]) -> list[Problem]:
    """Variables for a section the station does not have: the library passes them over, but
    every section is here, so each is a typo, not a guess to make."""
    return [Problem(f"environment {name}", section,
                    f"there is no such section; the sections are {', '.join(SECTIONS)}")
            for name in sorted(env)
            if name.upper().startswith(ENV_PREFIX) and "__" in name
            and (section := name[len(ENV_PREFIX):].lower().partition("__")[0]) not in SECTIONS]


class _Layer:
    """One source's raw values, with what a problem found in them is told to name."""

    def __init__(self, source: PydanticBaseSettingsSource, name: str,
                 variables: Mapping[tuple[str, ...], str] | None = None) -> None:
        self.source = source
        self.data = source()
        self.name = name
        self.variables = variables  # the environment: each key's own variable

    def sets(self, loc: tuple[str, ...]) -> bool:
        value: object = self.data
        for part in loc:
            if not isinstance(value, Mapping) or part not in value:
                return False
            value = value[part]
        return True

    def name_of(self, loc: tuple[str, ...]) -> str:
        if self.variables is None:
            return self.name
        under = [v for path, v in self.variables.items() if path[:len(loc)] == loc]
        return f"environment {under[-1]}" if under else self.name


def _variables(env: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    return {tuple(name[len(ENV_PREFIX):].lower().split("__")): name
            for name in sorted(env) if name.upper().startswith(ENV_PREFIX)}


def _source_of(loc: tuple[str, ...], layers: list[_Layer]) -> str:
    """The file or variable a problem at `loc` names: the last layer that set the key, or,
    for a check of a whole section, the last layer that set anything in it."""
    for layer in reversed(layers):
        if layer.sets(loc):
            return layer.name_of(loc)
    return BUILT_IN


def _why(error: ErrorDetails, loc: tuple[str, ...]) -> str:
    kind = error["type"]
    msg = str(error["msg"]).removeprefix("Value error, ")
    if kind == "extra_forbidden":
        model: type[BaseModel] = TableConfig
        for part in loc[:-1]:
            annotation = model.model_fields[part].annotation
            assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
            model = annotation
        return (f"there is no such key here; the keys are "
                f"{', '.join(model.model_fields)}")
    if kind in ("model_type", "dict_type") and len(loc) == 1:
        return (f"is a section, not {error['input']!r}: write [{loc[0]}] on a line of its "
                f"own, then its keys (key = value) on the lines under it")
    if kind in ("literal_error", "enum", "bool_parsing", "bool_type", "int_parsing", "int_type",
                "string_type", "greater_than_equal", "less_than_equal", "string_too_short",
                "string_too_long", "model_type", "dict_type"):
        return f"{msg}, not {error['input']!r}"
    return msg


def load_config(site: str | Path | None = None, *, env: Mapping[str, str] | None = None,
                overrides: Mapping[str, object] | None = None,
                overrides_source: str = "overrides",
                default_file: Path = DEFAULT_FILE) -> TableConfig:
    """The table's configuration from the shipped file, the site file, the environment and
    any overrides, validated; a `ConfigError` lists everything wrong."""
    environ = os.environ if env is None else env
    layers: list[_Layer] = []
    if default_file.exists():
        # The shipped card is the models' default too; left unnamed, the table's joker
        # chooses it (RulesSection: a fully wild joker plays the "fully-wild" card).
        layers.append(_Layer(_TomlFile(default_file, leave_out=("rules", "house_way")),
                             _display(default_file)))
    site_path = site if site is not None else environ.get(ENV_FILE) or None
    if site_path is not None:
        layers.append(_Layer(_TomlFile(Path(site_path)), _display(Path(site_path))))
        # The site's own House Way cards live beside its config file.
        use_site_cards(Path(site_path).resolve().parent / "house-ways")
    unknown = _no_such_sections(environ)
    if unknown:
        raise ConfigError(unknown)
    layers.append(_Layer(_Environment(environ), "environment", _variables(environ)))
    if overrides:
        layers.append(_Layer(InitSettingsSource(TableConfig, dict(overrides)),
                             overrides_source))
    try:
        # The library merges the layers, the first it is given over the others. (mypy takes
        # the model's fields for its only arguments, not the library's own.)
        sources = tuple(layer.source for layer in reversed(layers))
        config = TableConfig(_build_sources=(sources, {}))  # type: ignore[call-arg]
    except ValidationError as e:
        problems = []
        for error in e.errors():
            loc = tuple(str(p) for p in error["loc"])
            problems.append(Problem(_source_of(loc, layers), ".".join(loc), _why(error, loc)))
        raise ConfigError(problems) from None
    # The ledger finds the card a settlement names there too (app/ledger/progressive.py).
    _use_site_progressives(config.progressive.cards_folder or None)
    return config


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
