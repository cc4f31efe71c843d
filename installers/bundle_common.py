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
