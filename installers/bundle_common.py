"""What both PyInstaller specs leave out of the bundle (build time only)."""

# Qt modules the wizard never uses: leaving them out keeps the bundle small.
QT_EXCLUDES = [
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtQuickControls2",
    "PySide6.QtNetwork", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtMultimedia",
    "PySide6.QtMultimediaWidgets", "PySide6.Qt3DCore", "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets",
    "PySide6.QtWebChannel", "PySide6.QtWebSockets", "PySide6.QtSql", "PySide6.QtTest", "PySide6.QtDesigner",
    "PySide6.QtHelp", "PySide6.QtBluetooth", "PySide6.QtPositioning", "PySide6.QtSerialPort",
    "PySide6.QtCharts", "PySide6.QtDataVisualization",
    "PySide6.QtConcurrent", "PySide6.QtXml", "PySide6.QtDBus", "PySide6.QtStateMachine",
    "PySide6.QtSpatialAudio", "PySide6.QtTextToSpeech", "PySide6.QtUiTools", "PySide6.QtNetworkAuth",
    "PySide6.QtRemoteObjects", "PySide6.QtScxml", "PySide6.QtSensors", "PySide6.QtNfc", "PySide6.QtHttpServer",
]
OTHER_EXCLUDES = ["tkinter", "torch", "matplotlib", "scipy", "pytest", "IPython", "PyQt5", "PyQt6",
                  "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "OpenGL", "cupy", "h5py", "colorcet"]

# System libraries a desktop already has: the build machine's copies may need a newer glibc than
# the oldest target (Ubuntu 22.04 has glibc 2.35; a Debian 12 build machine's libstdc++ and libexpat
# need 2.36), so the bundle uses the desktop's own.
SYSTEM_LIBS = ("libstdc++.so.6", "libgcc_s.so.1", "libexpat.so.1")
OLDEST_GLIBC = (2, 35)  # Ubuntu 22.04


def drop_system_libs(binaries):
    """PyInstaller TOC entries without the libraries in SYSTEM_LIBS."""
    return [b for b in binaries if not any(b[0].split("/")[-1].startswith(lib) for lib in SYSTEM_LIBS)]
