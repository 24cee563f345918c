# Installation, man pages, the module's install and its DKMS source tree
# (docs/packaging.md). Included by the top-level Makefile.
#
#   make man                         build/man/*.1 from the programs' --help (help2man)
#   make install [DESTDIR=] [PREFIX=/usr/local]   programs, man pages, completion, udev rule, docs
#   make uninstall [DESTDIR=] [PREFIX=]           removes exactly what install wrote
#   make modules_install [KDIR=] [DESTDIR=]       the module into DESTDIR/lib/modules/RELEASE/extra
#   make install-dkms [DESTDIR=]     the module's sources and dkms.conf into /usr/src/ptscope-VERSION
#   make deb                         the ptscope and ptscope-dkms packages, in build/deb
#
# GNU conventions: PREFIX (default /usr/local) and its directories below can
# each be overridden; DESTDIR stages everything under another root. The udev
# rule and the DKMS tree go where udev and DKMS read them, whatever PREFIX:
# udev's own directory (pkg-config udev, else /lib/udev) and /usr/src.

PTS_PKG_VERSION := $(shell sed -n 's/^\#define PTS_VERSION "\(.*\)"/\1/p' userland/lib/util/version.h)
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
DOCDIR      ?= $(DATADIR)/doc/ptscope
BASHCOMPDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) \
		--variable=completionsdir bash-completion 2>/dev/null),$(DATADIR)/bash-completion/completions)
UDEVDIR     ?= $(or $(shell pkg-config --variable=udevdir udev 2>/dev/null),/lib/udev)
DKMSSRCDIR  ?= /usr/src
INSTALL     ?= install
# MAN=no installs without man pages (when help2man is missing)
MAN         ?= yes

PTS_INSTALL_PROGS := ptscope ptsynth fxtcheck
# the user's documents (the others are the project's own: tests, fuzzing, ...)
PTS_DOCS := README.md $(wildcard $(addprefix docs/,tutorial.md capture.md decode.md \
		bundle-format.md output-formats.md abi.md simulated-unit.md ptsynth.md packaging.md))
# what the module's DKMS build reads: the top Kbuild, kmod/ and include/
PTS_DKMS_FILES := Kbuild $(sort $(wildcard kmod/Kbuild kmod/*.[ch] kmod/pure/*.[ch] \
		include/ptscope/*.h include/uapi/*.h))

.PHONY: man install uninstall modules_install install-dkms uninstall-dkms deb

man: $(B)/man/ptscope.1

$(B)/man/ptscope.1: $(B)/ptscope $(B)/ptsynth $(B)/fxtcheck packaging/man/gen-man.sh \
		$(wildcard packaging/man/*.h2m)
	@command -v help2man > /dev/null || { echo "error: help2man not found: the man pages are" \
		"generated from --help by help2man (apt-get install help2man);" \
		"make install MAN=no installs without them"; exit 2; }
	rm -rf $(B)/man
	bash packaging/man/gen-man.sh $(B) $(B)/man

install: userland $(if $(filter yes,$(MAN)),man)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(UDEVDIR)/rules.d $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 0755 $(addprefix $(B)/,$(PTS_INSTALL_PROGS)) $(DESTDIR)$(BINDIR)/
ifeq ($(MAN),yes)
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0644 $(B)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
endif
	$(INSTALL) -m 0644 packaging/bash-completion/ptscope $(DESTDIR)$(BASHCOMPDIR)/ptscope
	ln -sf ptscope $(DESTDIR)$(BASHCOMPDIR)/ptsynth
	ln -sf ptscope $(DESTDIR)$(BASHCOMPDIR)/fxtcheck
	$(INSTALL) -m 0644 packaging/udev/60-ptscope.rules $(DESTDIR)$(UDEVDIR)/rules.d/
	$(INSTALL) -m 0644 $(PTS_DOCS) $(DESTDIR)$(DOCDIR)/

# Only the names install writes; directories that end up empty are left
# alone (they may be shared). ptscope-*.1 is this project's namespace.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(PTS_INSTALL_PROGS))
	rm -f $(DESTDIR)$(MANDIR)/man1/ptscope.1 $(DESTDIR)$(MANDIR)/man1/ptscope-*.1 \
		$(DESTDIR)$(MANDIR)/man1/ptsynth.1 $(DESTDIR)$(MANDIR)/man1/fxtcheck.1
	rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,ptscope ptsynth fxtcheck)
	rm -f $(DESTDIR)$(UDEVDIR)/rules.d/60-ptscope.rules
	rm -rf $(DESTDIR)$(DOCDIR)

# Into DESTDIR/lib/modules/RELEASE/ under kbuild's directory for external
# modules (extra/ or updates/, by kernel version); depmod runs for a real
# install only (no DESTDIR). Unsigned: a header tree holds no signing key
# (on a machine that enforces module signatures, DKMS signs with its own).
# the tree's `uname -r` (Debian's 6.1 trees say 6.1.N in include/config/kernel.release)
PTS_KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
modules_install: module
	$(if $(strip $(KDIR)),,@echo "error: no kernel tree to install for (see above)"; exit 2)
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(if $(DESTDIR),INSTALL_MOD_PATH=$(abspath $(DESTDIR))) \
		CONFIG_MODULE_SIG_ALL= modules_install
	$(if $(DESTDIR),,depmod -a $(PTS_KREL))

install-dkms:
	$(INSTALL) -d $(DESTDIR)$(DKMSSRCDIR)/ptscope-$(PTS_PKG_VERSION)
	for f in $(PTS_DKMS_FILES); do \
		$(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMSSRCDIR)/ptscope-$(PTS_PKG_VERSION)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(PTS_PKG_VERSION)/' packaging/dkms.conf \
		> $(DESTDIR)$(DKMSSRCDIR)/ptscope-$(PTS_PKG_VERSION)/dkms.conf

uninstall-dkms:
	rm -rf $(DESTDIR)$(DKMSSRCDIR)/ptscope-$(PTS_PKG_VERSION)

deb:
	@bash packaging/make-deb.sh $(B)/deb
