# Build the Windows bundle (run in PowerShell on Windows 10/11 x64 with Python 3.10+):
#   powershell -ExecutionPolicy Bypass -File installers\windows\build.ps1
# Output: build\dist\gpu-wizard\gpu-wizard.exe (+ gpu-wizard-helper.exe) and build\gpu-wizard-<version>-windows-x64.zip
$ErrorActionPreference = "Stop"
$root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $root
if (-not (Test-Path .venv\Scripts\python.exe)) { py -3 -m venv .venv }
& .venv\Scripts\python.exe -m pip install -q --upgrade pip
& .venv\Scripts\python.exe -m pip install -q -e ".[package]"
if (-not (Test-Path installers\windows\gpu-wizard.ico)) {
  # the icon is made from the SVG with Qt, so the build needs no other tool
  & .venv\Scripts\python.exe installers\windows\make_icon.py
}
& .venv\Scripts\python.exe -m PyInstaller --noconfirm --clean --distpath build\dist --workpath build\work installers\windows\gpu-wizard.spec
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }
$version = & .venv\Scripts\python.exe -c "import app; print(app.__version__)"
$zip = "build\gpu-wizard-$version-windows-x64.zip"
if (Test-Path $zip) { Remove-Item $zip }
Compress-Archive -Path build\dist\gpu-wizard -DestinationPath $zip
& build\dist\gpu-wizard\gpu-wizard.exe --version
Write-Host "bundle: build\dist\gpu-wizard  zip: $zip"
