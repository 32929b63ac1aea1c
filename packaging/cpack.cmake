# The Debian package `oncepay` (cpack -G DEB in the build directory; packaging/test.sh builds,
# lints, installs and removes it). Included from the top-level CMakeLists.txt.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME oncepay)
set(CPACK_PACKAGE_VENDOR "OncePay")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "OncePay maintainers <oncepay@example.org>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "exactly-once payment callbacks, reconciliation and audit")
set(CPACK_PACKAGE_DESCRIPTION
    "OncePay makes every payment of a cross-border purchasing platform take
effect exactly once. It verifies signed callbacks from PayPal, Stripe,
KakaoPay and FedaPay, stores each once in a local message table, moves
orders through a versioned state machine, books the money, purchase order
and logistics order once in one transaction, reconciles settlement
statements and keeps an append-only, hash-chained audit log.

This package holds the engine (oncepay: webhook gateway, workers, batch
jobs, administration, with systemd units) and the desktop console
(oncepay-console) for customer service, finance reviewers and auditors.
It works with embedded SQLite, PostgreSQL and MySQL/MariaDB.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

set(CPACK_DEBIAN_PACKAGE_RELEASE ${ONCEPAY_DEB_RELEASE})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# Shared libraries (Qt, spdlog, fmt, libsodium, OpenSSL) from dpkg-shlibdeps; plug-ins are
# loaded at run time, so dpkg-shlibdeps cannot see them: the SQL drivers of the three
# engines and the platform plug-ins of the console are named here.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libqt6sql6-sqlite, libqt6sql6-psql, libqt6sql6-mysql, qt6-qpa-plugins, adduser")
# Chinese text in the console, and Qt's own dialogs in Chinese.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "postgresql | mariadb-server")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${CMAKE_SOURCE_DIR}/packaging/debian/postinst
    ${CMAKE_SOURCE_DIR}/packaging/debian/prerm
    ${CMAKE_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)

include(CPack)
