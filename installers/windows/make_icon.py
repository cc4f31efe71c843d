"""Render installers/linux/gpu-wizard.svg into a multi-size Windows .ico with Qt (build time only)."""
import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication, QIcon

here = Path(__file__).resolve().parent
app = QGuiApplication(sys.argv[:1])
icon = QIcon(str(here.parent / "linux" / "gpu-wizard.svg"))
pixmap = icon.pixmap(QSize(256, 256))
if not pixmap.save(str(here / "gpu-wizard.ico"), "ICO"):
    sys.exit("could not write gpu-wizard.ico (Qt lacks the ICO image plugin?)")
print("wrote", here / "gpu-wizard.ico")
