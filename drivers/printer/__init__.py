"""The settlement slip printer: text for 42/48-column receipt paper, ESC/POS through
python-escpos (file, serial or network device), a PDF for the shift report, and a durable
reprint queue so that a slip the printer could not print is never lost. No Qt here.

    from drivers.printer import PrinterConfig, print_slip, SlipPrinter
    result = print_slip(slip_dict, PrinterConfig.from_mapping(table_config["printer"]))
"""

from .config import PrinterConfig, PrinterConfigError
from .device import PrinterProblem, Status
from .layout import PrintLine, SlipError, Style, slip_lines, slip_text, styled_lines
from .printer import PrintResult, ReprintResult, SlipPrinter, print_slip
from .queue import KeptSlip, ReprintQueue

__all__ = [
    "KeptSlip", "PrintLine", "PrintResult", "PrinterConfig", "PrinterConfigError",
    "PrinterProblem", "ReprintQueue", "ReprintResult", "SlipError", "SlipPrinter", "Status",
    "Style", "print_slip", "slip_lines", "slip_text", "styled_lines",
]
