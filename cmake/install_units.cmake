# install_units.cmake - installs the systemd units and SLURM scripts of
# config/, run at install time (CMakeLists.txt, install(SCRIPT)) because
# where they go and the binary they name depend on the prefix of that
# install: /usr (the Debian package) puts the units in /lib/systemd/system,
# Debian 12's place for a package's units, naming /usr/bin/mutfarm; another
# prefix P puts them in P/lib/systemd/system (systemd reads
# /usr/local/lib/systemd/system too), naming P/bin/mutfarm.
# MF_SRC (the source tree) and MF_BINDIR (relative or absolute) are set
# by the install(CODE) before it.
if(IS_ABSOLUTE "${MF_BINDIR}")
    set(bin "${MF_BINDIR}/mutfarm")
else()
    set(bin "${CMAKE_INSTALL_PREFIX}/${MF_BINDIR}/mutfarm")
endif()
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
    set(unitdir /lib/systemd/system)
else()
    set(unitdir "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
set(slurmdir "${CMAKE_INSTALL_PREFIX}/share/mutfarm/slurm")

function(mf_put name dir mode)
    file(READ "${MF_SRC}/config/${name}" text)
    string(REPLACE "/usr/bin/mutfarm" "${bin}" text "${text}")
    set(dest "$ENV{DESTDIR}${dir}")
    file(MAKE_DIRECTORY "${dest}")
    file(WRITE "${dest}/${name}" "${text}")
    file(CHMOD "${dest}/${name}" PERMISSIONS ${mode})
    message(STATUS "Installing: ${dest}/${name}")
endfunction()

foreach(u mutfarm-coordinator.service mutfarm-worker@.service
          mutfarm-nightly.service mutfarm-nightly.timer)
    mf_put(${u} "${unitdir}" "OWNER_READ;OWNER_WRITE;GROUP_READ;WORLD_READ")
endforeach()
foreach(s mutfarm-campaign.sbatch mutfarm-workers.sbatch)
    mf_put(${s} "${slurmdir}"
           "OWNER_READ;OWNER_WRITE;OWNER_EXECUTE;GROUP_READ;GROUP_EXECUTE;WORLD_READ;WORLD_EXECUTE")
endforeach()
