"""The [printer] and [shoe] sections of the table config: shipped defaults, the drivers'
settings built from them, and bad values refused with the file, the key and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import ConfigError, TableConfig, load_config
from drivers.printer.config import PrinterConfig, PrinterConfigError, default_queue_dir
from drivers.shoe.transport import ShoeConfig


def _refused(tmp_path: Path, text: str) -> ConfigError:
    site = tmp_path / "site.toml"
    site.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(site, env={})
    return err.value


def test_the_shipped_table_has_no_printer_and_no_shoe() -> None:
    config = load_config(env={})
    assert config.printer_config() == PrinterConfig()
    assert config.printer_config().kind == "none" and config.printer_config().columns == 42
    assert config.shoe_config() is None  # no shoe: the dealer enters the cards


def test_the_shipped_printer_keys_are_the_drivers_keys() -> None:
    assert set(TableConfig().printer.model_dump()) == set(PrinterConfig.__dataclass_fields__)


def test_a_site_file_sets_up_a_network_printer(tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[printer]\nkind = "network"\nhost = "192.168.1.50"\ncolumns = 48\n'
                    'profile = "TM-T88V"\n')
    printer = load_config(site, env={}).printer_config()
    assert (printer.kind, printer.host, printer.tcp_port, printer.columns) == (
        "network", "192.168.1.50", 9100, 48)
    assert printer.where == "192.168.1.50:9100"


def test_the_environment_sets_up_a_usb_printer() -> None:
    printer = load_config(env={"PAIGOW_PRINTER__KIND": "file",
                               "PAIGOW_PRINTER__COLUMNS": "48",
                               "PAIGOW_PRINTER__QUEUE_DIR": "/var/lib/paigow/kept"}
                          ).printer_config()
    assert (printer.kind, printer.path, printer.columns) == ("file", "/dev/usb/lp0", 48)
    assert printer.queue_path == Path("/var/lib/paigow/kept")


def test_the_queue_is_in_the_users_data_directory_by_default() -> None:
    assert PrinterConfig().queue_path == default_queue_dir()
    assert default_queue_dir().parts[-2:] == ("paigow-station", "reprint-queue")


@pytest.mark.parametrize("text, key, why", [
    ('kind = "usb"', "printer.kind", "'none', 'file', 'serial', 'network' or 'pdf'"),
    ('kind = "pdf"', "printer.path", 'kind is "pdf": name the folder the slips are written to'),
    ("columns = 40", "printer.columns", "42 or 48 characters wide"),
    ("tcp_port = 0", "printer.tcp_port", "not a TCP port"),
    ("baud = 9601", "printer.baud", "not a serial speed"),
    ("timeout = 0", "printer.timeout", "above 0"),
    ("check_status = \"maybe\"", "printer.check_status", "valid boolean"),
    ("colums = 48", "printer.colums", "no such key"),
    ('kind = "network"', "printer.host", 'kind is "network": give the printer\'s address'),
    ('kind = "serial"', "printer.port", 'kind is "serial": name the printer\'s serial port'),
    ('kind = "file"\npath = ""', "printer.path", 'kind is "file"'),
    ('kind = "file"\nprofile = "TM-T88X"', "printer.profile", "no printer profile 'TM-T88X'"),
])
def test_a_bad_printer_setting_is_refused_with_the_key_and_why(tmp_path: Path, text: str,
                                                                key: str, why: str) -> None:
    err = _refused(tmp_path, f"[printer]\n{text}\n")
    assert err.key == key and why in err.why


def test_a_bad_printer_value_names_the_file_that_set_it(tmp_path: Path) -> None:
    err = _refused(tmp_path, "[printer]\ncolumns = 40\n")
    assert err.file.endswith("site.toml")


def test_the_printer_driver_refuses_what_the_table_config_refuses() -> None:
    with pytest.raises(PrinterConfigError, match="printer.host: kind is \"network\""):
        PrinterConfig(kind="network")
    with pytest.raises(PrinterConfigError, match="printer.colour: not a printer setting"):
        PrinterConfig.from_mapping({"colour": "red"})
    assert PrinterConfig.from_mapping({"tcp-port": 9101, "kind": "network", "host": "p1"}
                                      ).tcp_port == 9101


def test_a_shoe_port_sets_up_the_shoe_driver(tmp_path: Path) -> None:
    site = tmp_path / "site.toml"
    site.write_text('[shoe]\nport = "usb-ACME_Shoe"\nbaud = 19200\nresend_tries = 5\n')
    shoe = load_config(site, env={}).shoe_config()
    assert shoe == ShoeConfig("usb-ACME_Shoe", 19200, resend_tries=5)
    env_shoe = load_config(env={"PAIGOW_SHOE__PORT": "/dev/ttyUSB0",
                                "PAIGOW_SHOE__HEARTBEAT_TIMEOUT": "0"}).shoe_config()
    assert env_shoe == ShoeConfig("/dev/ttyUSB0", heartbeat_timeout=0.0)


@pytest.mark.parametrize("text, key, why", [
    ("baud = 9601", "shoe.baud", "9601 is not a serial speed"),
    ("heartbeat_timeout = -1", "shoe.heartbeat_timeout", "(0 turns it off)"),
    ("read_timeout = 0", "shoe.read_timeout", "above 0"),
    ("resend_tries = 0", "shoe.resend_tries", "1 or more"),
    ("reconnect_min = 3.0", "shoe.reconnect_max", "below reconnect_min (3.0)"),
    ("heartbeat-timeout = 3.0", "shoe.heartbeat-timeout", "heartbeat_timeout"),
])
def test_a_bad_shoe_setting_is_refused_with_the_key_and_why(tmp_path: Path, text: str,
                                                             key: str, why: str) -> None:
    err = _refused(tmp_path, f"[shoe]\n{text}\n")
    assert err.key == key and why in err.why
